/** An e-mail address as accounts, users and sign-in compare it. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();
