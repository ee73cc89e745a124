import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { IsOptionalNotNull } from '../../common/optional-not-null';
import { PasskeyAnswerDto } from '../operators/operators.dto';
import type { Passkey } from './passkeys.repository';

export const MAX_PASSKEY_NAME = 100;

/** A registered passkey, as its operator sees it. */
export class PasskeyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'YubiKey 5' }) name: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'The last sign-in, second factor or step-up with it' }) last_used_at: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'multiDevice', description: 'singleDevice (bound to one authenticator) or multiDevice (synced), as the authenticator said' }) device_type: string | null;
  @ApiProperty({ description: 'Whether the authenticator says the passkey is backed up (synced)' }) backed_up: boolean;
}

export const toPasskeyDto = (p: Passkey): PasskeyDto => ({
  id: p.id,
  name: p.name,
  created_at: p.createdAt.toISOString(),
  last_used_at: p.lastUsedAt?.toISOString() ?? null,
  device_type: p.deviceType,
  backed_up: p.backedUp,
});

/** A WebAuthn ceremony begun: what navigator.credentials.create/get needs (as @simplewebauthn/browser takes it), and its id. */
export class PasskeyCeremonyDto {
  @ApiProperty({ format: 'uuid', description: 'Sent back with the answer; used once, within 5 minutes' }) challenge_id: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON' })
  options: Record<string, unknown>;
}

export class RegisterPasskeyDto extends PasskeyAnswerDto {
  @ApiPropertyOptional({ example: 'YubiKey 5', maxLength: MAX_PASSKEY_NAME, description: 'Defaults to "Passkey"' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(MAX_PASSKEY_NAME)
  name?: string;
}

export class RenamePasskeyDto {
  @ApiProperty({ example: 'Work laptop', maxLength: MAX_PASSKEY_NAME })
  @IsString()
  @MaxLength(MAX_PASSKEY_NAME)
  name: string;
}
