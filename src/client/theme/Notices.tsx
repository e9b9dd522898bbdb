export interface Notice {
  type: 'success' | 'error' | 'info';
  message: string;
}

/** WooCommerce-style notices: errors are announced as alerts, the rest politely. */
export function Notices({ notices }: { notices: Notice[] }) {
  if (notices.length === 0) return null;
  return (
    <div className="notices">
      {notices.map((notice) => (
        <div
          key={`${notice.type}:${notice.message}`}
          className={`notice notice--${notice.type}`}
          role={notice.type === 'error' ? 'alert' : 'status'}
        >
          {notice.message}
        </div>
      ))}
    </div>
  );
}
