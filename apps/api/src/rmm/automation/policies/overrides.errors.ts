/** What the policy overrides refuse (rmm-error.surface.ts gives each its status). */
export enum OverridesErrorCode {
  /** An override of an enforced policy's item: enforced items cannot be exempted per agent (409). */
  Enforced = 'policy_item_enforced',
}
