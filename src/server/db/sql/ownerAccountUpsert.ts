/** The owner account's upsert (one row, id 1); `keepEmail` leaves the stored address as it is. */
export function ownerAccountUpsertSql(keepEmail: boolean, placeholders: [string, string, string]): string {
  const [hash, email, at] = placeholders;
  return `INSERT INTO owner_account (id, password_hash, email, updated_at) VALUES (1, ${hash}, ${email}, ${at})
    ON CONFLICT (id) DO UPDATE SET password_hash = excluded.password_hash,
      email = ${keepEmail ? 'owner_account.email' : 'excluded.email'}, updated_at = excluded.updated_at`;
}
