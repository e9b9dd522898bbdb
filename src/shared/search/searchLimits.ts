/** The longest search text the shop takes; search fields carry it as `maxlength`, so only a typed-in address exceeds it. */
export const MAX_SEARCH_LENGTH = 100;
