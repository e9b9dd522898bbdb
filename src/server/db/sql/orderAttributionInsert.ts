/**
 * An order's attribution row, with `@name` placeholders (better-sqlite3 binds them; queryNamed on PostgreSQL);
 * its values are `{ orderId, ...attribution }`.
 */
export const ORDER_ATTRIBUTION_INSERT = `INSERT INTO order_attribution (order_id, source_type, referrer, utm_campaign,
       utm_source, utm_medium, utm_content, utm_id, utm_term, utm_source_platform, utm_creative_format,
       utm_marketing_tactic, session_entry, session_start_time, session_pages, session_count, user_agent, device_type,
       current_page, promo_code)
     VALUES (@orderId, @sourceType, @referrer, @utmCampaign, @utmSource, @utmMedium, @utmContent, @utmId, @utmTerm,
       @utmSourcePlatform, @utmCreativeFormat, @utmMarketingTactic, @sessionEntry, @sessionStartTime, @sessionPages,
       @sessionCount, @userAgent, @deviceType, @currentPage, @promoCode)`;
