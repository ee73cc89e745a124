import { ApiProperty } from '@nestjs/swagger';

/** GET /agent/v1/ping: the server took this agent's credentials (and registered nothing). */
export class AgentPingDto {
  @ApiProperty({ example: '42', description: 'The agent the credentials belong to' }) agent_id: string;
  @ApiProperty({ format: 'date-time', description: "The server's clock" }) server_time: string;
}
