// English texts of the sign-in and sign-up pages and of what every page shows: what every page loads (the texts
// of the other handler pages, the TOTP dialog and the header widgets are in en-pages.ts, the settings texts in
// // en-settings.ts, each loaded with the chunks that show them). `{name}` placeholders are filled by the translator;
// texts quoted from the spec are kept letter for letter.
export const enBase = {
  // Shared words
  'common.loading': 'Loading…',
  'common.cancel': 'Cancel',
  'common.goHome': 'Go home',
  'common.goToHome': 'Go to Home',
  'common.signIn': 'Sign in',
  'common.signUp': 'Sign up',
  'common.signOut': 'Sign out',
  'common.or': 'Or',
  'common.email': 'Email',
  'common.password': 'Password',
  'common.tryAgain': 'Try again',
  'common.close': 'Close',
  'common.save': 'Save',

  // Field validation
  'validation.emailRequired': 'Please enter your email',
  'validation.emailInvalid': 'Please enter a valid email',
  'validation.passwordRequired': 'Please enter your password',
  'validation.passwordTooShort': 'Password must be at least {min} characters long',
  'validation.passwordTooLong': 'Password must be at most {max} characters long',
  'validation.repeatPasswordRequired': 'Please repeat your password',
  'validation.passwordsDoNotMatch': 'Passwords do not match',
  'validation.codeRequired': 'Please enter the code from your email',

  // Errors the service returns, in words a person understands
  'error.emailPasswordMismatch': 'Wrong e-mail or password.',
  'error.userEmailAlreadyExists': 'An account with this email already exists. Sign in instead, or use another email.',
  'error.passwordRequirementsNotMet': 'This password does not meet the requirements. Please choose another one.',
  'error.signUpNotEnabled': 'Sign up for new users is not enabled at the moment.',
  'error.passwordAuthNotEnabled': 'Signing in with a password is not enabled for this app.',
  'error.passkeyAuthNotEnabled': 'Signing in with a passkey is not enabled for this app.',
  'error.redirectUrlNotWhitelisted': 'This app is not allowed to send sign-in links to this address (the redirect URL is not trusted by the project).',
  'error.incorrectCode': 'Incorrect code. Please try again.',
  'error.codeExpired': 'This code has expired. Please request a new one.',
  'error.codeAlreadyUsed': 'This code has already been used. Please request a new one.',
  'error.codeMaxAttempts': 'Too many wrong attempts. Please request a new code.',
  'error.invalidTotpCode': 'Invalid TOTP code. Please try signing in again.',
  'error.passkeyFailed': 'Failed to sign in with passkey',
  'error.passkeyCancelled': 'The passkey prompt was cancelled or timed out.',
  'error.userNotFound': 'No account uses this email.',
  'error.rateLimited': 'Too many attempts. Please wait a moment and try again.',
  'error.network': 'Could not reach the server. Check your connection and try again.',
  'error.unknown': 'Something went wrong. Please try again.',
  'error.refused': 'The server refused this.',
  'error.loadFailed': 'This page could not be loaded.',
  'error.untrustedRedirect': 'Redirect URL {url} is not trusted; should be relative.',

  // Sign-in and sign-up
  'signIn.title': 'Sign in to your account',
  'signIn.noAccount': "Don't have an account?",
  'signIn.forgotPassword': 'Forgot password?',
  'signIn.submit': 'Sign In',
  'signIn.withPasskey': 'Sign in with Passkey',
  'signIn.withProvider': 'Sign in with {provider}',
  'signIn.emailCodeTab': 'Email',
  'signIn.passwordTab': 'Email & Password',
  'signIn.noMethods': 'No sign-in method is enabled for this project.',
  'signUp.title': 'Create a new account',
  'signUp.haveAccount': 'Already have an account?',
  'signUp.submit': 'Sign Up',
  'signUp.repeatPassword': 'Repeat Password',
  'signUp.withProvider': 'Sign up with {provider}',
  'signUp.disabled': 'Sign up for new users is not enabled at the moment.',
  'alreadySignedIn.title': 'You are already signed in',
  'alreadySignedIn.text': 'You are already signed in.',
  'alreadySignedIn.signOut': 'Sign out',

  // Email one-time code / magic link
  'magicLink.sendCode': 'Send email',
  'magicLink.codeTitle': 'Enter the code from your email',
  'magicLink.codeSent': 'A sign-in email has been sent to {email}. Enter the code or click the link in it.',
  'magicLink.codeLabel': 'One-time code',
  'magicLink.verify': 'Sign in',
  'magicLink.back': 'Use another email',

  // Password input
  'password.show': 'Show password',
  'password.hide': 'Hide password',
  'password.strength.label': 'Password strength',
  'password.strength.0': 'very weak',
  'password.strength.1': 'weak',
  'password.strength.2': 'fair',
  'password.strength.3': 'strong',
  'password.strength.4': 'very strong',

  // Handler
  'handler.iframe': 'Stack Auth components may not run in an <iframe>.',
  'handler.notFoundTitle': 'Page does not exist',
  'handler.notFoundText': 'The page you are looking for could not be found. Please check the URL and try again.',
} as const;
