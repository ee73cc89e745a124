/** What the scripts module refuses (rmm-error.surface.ts gives each its status). */
export enum ScriptsErrorCode {
  NameTaken = 'script_name_taken',
  InUse = 'script_in_use',
}
