/** The Account page's passkeys section (list, add, rename, remove). Placeholder of the foundation commit: the passkeys work replaces it. */
export function AccountPasskeys() {
  return null;
}
