export function StarRating({ average, count }: { average: number; count: number }) {
  if (count === 0) return null;
  const label = `Rated ${average.toFixed(1)} out of 5 from ${count} ${count === 1 ? 'review' : 'reviews'}`;
  return (
    <span className="star-rating" role="img" aria-label={label} title={label}>
      <span className="star-rating__fill" style={{ width: `${(average / 5) * 100}%` }} />
    </span>
  );
}
