// English texts of the handler pages other than sign-in and sign-up, of the TOTP dialog and of the header widgets
// (user button, team switcher): each of those modules adds them with registerEnglish, so the sign-in page does not
// carry them. `{name}` placeholders are filled by the translator; texts quoted from the spec are kept letter for letter.
export const enPages = {
  // Multi-factor
  'mfa.title': 'Two-factor authentication',
  'mfa.prompt': 'Please enter the six-digit TOTP code from your authenticator app.',
  'mfa.codeLabel': 'Authenticator code',
  'mfa.verify': 'Verify',
  'mfa.wrongCode': 'That code is not valid. Enter the current code from your authenticator app.',

  // User button
  'userButton.open': 'Open account menu',
  'userButton.accountSettings': 'Account settings',
  'userButton.signIn': 'Sign in',
  'userButton.signUp': 'Sign up',
  'userButton.anonymous': 'Anonymous user',

  // Teams
  'teamSwitcher.label': 'Team',
  'teamSwitcher.placeholder': 'Select a team',
  'teamSwitcher.noTeams': 'No teams yet',

  // Sign-out page
  'signOut.signingOut': 'Signing out…',
  'signOut.done': 'You are not currently signed in.',

  // Email verification page
  'verify.invalidTitle': 'Invalid Verification Link',
  'verify.invalidText': 'Please check if you have the correct link. If you continue to have issues, please contact support.',
  'verify.expiredTitle': 'Expired Verification Link',
  'verify.expiredText': 'Your email verification link has expired. Please request a new verification link from your account settings.',
  'verify.confirmTitle': 'Do you want to verify your email?',
  'verify.confirm': 'Verify',
  'verify.successTitle': 'Your email has been verified!',
  'verify.usedTitle': 'Verification Link Already Used',
  'verify.usedText': 'This verification link has already been used. If it was yours, your email address is verified: your account settings show it.',
  'verify.successText': 'Your email address is confirmed.',

  // Magic-link callback page
  'magicLinkPage.invalidTitle': 'Invalid Magic Link',
  'magicLinkPage.invalidText': 'Please check if you have the correct link. If you continue to have issues, please contact support.',
  'magicLinkPage.expiredTitle': 'Expired Magic Link',
  'magicLinkPage.expiredText': 'Your magic link has expired. Please request a new magic link if you need to sign-in.',
  'magicLinkPage.usedTitle': 'Magic Link Already Used',
  'magicLinkPage.usedText': 'The magic link has already been used. The link can only be used once. Please request a new magic link if you need to sign-in again.',
  'magicLinkPage.confirmTitle': 'Do you want to sign in?',
  'magicLinkPage.successTitle': 'Signed in successfully!',
  'magicLinkPage.successText': 'You are now signed in.',

  // Forgot-password page
  'forgot.title': 'Reset Your Password',
  'forgot.noNeed': "Don't need to reset?",
  'forgot.emailLabel': 'Your Email',
  'forgot.submit': 'Send Email',
  'forgot.sentTitle': 'Email sent!',
  'forgot.sentText': 'If the user exists, we have sent an email to {email} with a link to reset the password.',

  // Password-reset page
  'reset.invalidTitle': 'Invalid Password Reset Link',
  'reset.invalidText': 'Please double check if you have the correct password reset link.',
  'reset.expiredTitle': 'Expired Password Reset Link',
  'reset.expiredText': 'Your password reset link has expired. Please request a new password reset link from the login page.',
  'reset.usedTitle': 'Used Password Reset Link',
  'reset.usedText': 'This password reset link has already been used. If you need to reset your password again, please request a new password reset link from the login page.',
  'reset.title': 'Reset Your Password',
  'reset.newPassword': 'New Password',
  'reset.repeatNewPassword': 'Repeat New Password',
  'reset.submit': 'Reset Password',
  'reset.failedTitle': 'Failed to reset password',
  'reset.failedText': 'Failed to reset password. Please request a new password reset link',
  'reset.successTitle': 'Password reset successfully!',
  'reset.successText': 'Your password has been reset. You can now sign in with your new password.',

  // Team-invitation page
  'invite.invalidTitle': 'Invalid Team Invitation Link',
  'invite.invalidText': 'Please double check if you have the correct team invitation link.',
  'invite.expiredTitle': 'Expired Team Invitation Link',
  'invite.expiredText': 'Your team invitation link has expired. Please request a new team invitation link ',
  'invite.usedTitle': 'Used Team Invitation Link',
  'invite.usedText': 'This team invitation link has already been used.',
  'invite.signInTitle': 'Team invitation',
  'invite.signInText': 'Sign in or create an account to join the team.',
  'invite.invitedText': 'You are invited to join {team}',
  'invite.join': 'Join',
  'invite.ignore': 'Ignore',
  'invite.joinedText': 'You have successfully joined {team}',
  'invite.unknownTitle': 'An unknown error occurred',

  // OAuth callback page
  'oauthCallback.redirecting': 'Signing you in…',
  'oauthCallback.notRedirected': 'If you are not redirected automatically, ',
  'oauthCallback.clickHere': 'click here',
  'oauthCallback.errorTitle': 'Something went wrong while processing the OAuth callback:',
  'oauthCallback.errorHint': 'This is most likely an error in Stack. Please report it.',

  // Error page
  'errorPage.unknownTitle': 'An unknown error occurred',
  'errorPage.unknownText': 'Please try again and if the problem persists, contact support.',
  'errorPage.connectFailedTitle': 'Failed to connect account',
  'errorPage.connectFailedText': 'This account is already connected to another user. Please connect a different account.',
  'errorPage.alreadyConnectedText': 'This user is already connected to another account of this provider.',
  'errorPage.accessDeniedTitle': 'OAuth provider access denied',
  'errorPage.accessDeniedText': 'The sign-in operation has been cancelled or denied. Please try again.',
  'errorPage.signInAgain': 'Sign in again',
  'errorPage.genericTitle': 'An error occurred',
  'errorPage.code': 'Error Code: {code}',
  'errorPage.message': 'Error Message: {message}',

  // CLI confirmation page
  'cli.title': 'Authorize CLI Application',
  'cli.text': 'A command line application is requesting access to your account. Click the button below to authorize it.',
  'cli.authorize': 'Authorize',
  'cli.successTitle': 'CLI Authorization Successful',
  'cli.successText': 'The CLI application has been authorized successfully. You can now close this window and return to the command line.',
  'cli.failedTitle': 'Authorization Failed',
  'cli.failedText': 'Failed to authorize the CLI application:',
  'cli.missingCode': 'Missing login code in URL parameters',

  // Consent to an application signing in with this project (the project's OpenID provider)
  'oauthConsent.title': '{client} wants to access your account',
  'oauthConsent.text': 'Allowing lets {client} use your account with these permissions:',
  'oauthConsent.signedInAs': 'Signed in as {email}',
  'oauthConsent.allow': 'Allow',
  'oauthConsent.deny': 'Deny',
  'oauthConsent.logo': 'Logo of {client}',
  'oauthConsent.redirecting': 'Returning to the application…',
  'oauthConsent.failedTitle': 'The request could not be answered',
  'oauthConsent.failedText': 'Go back to the application and start again.',
  'oauthConsent.missingRequest': 'This page was opened without an authorization request.',
  'oauthConsent.scope.openid': 'Know who you are (your account id)',
  'oauthConsent.scope.profile': 'See your name and profile picture',
  'oauthConsent.scope.email': 'See your email address',
  'oauthConsent.scope.offline_access': 'Stay signed in when you are not using it',
} as const;
