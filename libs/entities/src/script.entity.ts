import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { SHELLS, Shell, sqlList } from './enums';

@Entity({ name: 'scripts' })
@Check('CHK_scripts_shell', `"shell" IN (${sqlList(SHELLS)})`)
@Check('CHK_scripts_default_timeout', `"default_timeout" BETWEEN 1 AND 300`)
export class ScriptEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text', unique: true })
  name: string;

  @Column({ type: 'text' })
  shell: Shell;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** The script's source code. */
  @Column({ type: 'text', default: '' })
  body: string;

  @Column({ name: 'default_args', type: 'text', array: true, default: () => "'{}'" })
  defaultArgs: string[];

  /** Seconds, 1..300. */
  @Column({ name: 'default_timeout', type: 'integer', default: 90 })
  defaultTimeout: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
