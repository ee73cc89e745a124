/** What the custom fields refuse (rmm-error.surface.ts gives each its status). */
export enum CustomFieldsErrorCode {
  /** A field of that name exists in that scope already. */
  NameTaken = 'custom_field_name_taken',
  /** The most fields there may be (MAX_CUSTOM_FIELDS) exist already. */
  TooMany = 'custom_field_too_many',
  /** Its name, scope or type cannot change while agents, sites or clients hold values of it. */
  HasValues = 'custom_field_has_values',
  /** A script's arguments name a field (or property) that does not exist: `unknown field client.foo`. */
  UnknownField = 'custom_field_unknown',
}
