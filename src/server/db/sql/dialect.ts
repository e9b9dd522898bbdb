/** The engine a statement is written for, where their SQL differs. */
export type SqlDialect = 'sqlite' | 'postgres';
