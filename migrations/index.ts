import { InitialSchema1763800000000 } from './1763800000000-initial-schema';

/** Every migration, in order. A new migration is added here as well as in this folder. */
export const ALL_MIGRATIONS: Function[] = [InitialSchema1763800000000];
