import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A data-platform user (GoTrue's auth.users). */
@Entity({ name: 'users', schema: 'auth' })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text', unique: true })
  email: string;

  /** argon2id/bcrypt hash; never the password itself. */
  @Column({ name: 'encrypted_password', type: 'text' })
  encryptedPassword: string;

  /** Set when an administrator creates the user with email_confirm (this server sends no mail). */
  @Column({ name: 'email_confirmed_at', type: 'timestamptz', nullable: true })
  emailConfirmedAt: Date | null;

  @Column({ name: 'last_sign_in_at', type: 'timestamptz', nullable: true })
  lastSignInAt: Date | null;

  /** GoTrue's user_metadata, as given by an administrator. */
  @Column({ name: 'raw_user_meta_data', type: 'jsonb', default: () => `'{}'` })
  rawUserMetaData: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
