/** What the clients module refuses (rmm-error.surface.ts gives each its status). */
export enum ClientsErrorCode {
  ClientNameTaken = 'client_name_taken',
  SiteNameTaken = 'site_name_taken',
  ClientHasAgents = 'client_has_agents',
  SiteHasAgents = 'site_has_agents',
}
