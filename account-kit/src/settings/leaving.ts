// When the person ends their own session here (sign out, delete the account, sign in again), the page must
// not also send them to sign-in the moment the user disappears: the action's own redirect decides where they go.
let leaving = false;

export function isLeaving(): boolean {
  return leaving;
}

/** Runs `end` (which ends the session and redirects); the frame's sign-in redirect stays off meanwhile. */
export async function leaveWith<T>(end: () => Promise<T>): Promise<T> {
  leaving = true;
  try {
    return await end();
  } catch (err) {
    leaving = false;
    throw err;
  }
}
