/**
 * "Showing results for X — search instead for Y": the search box's dropdown and the results page show it when
 * the search answered a corrected query (did you mean). Y links to the text as typed, searched without typo
 * correction. A polite live region, so a screen reader hears that the results are for other words than typed.
 */
export function DidYouMeanNotice({
  correction,
  original,
  url,
  className,
}: {
  correction: string;
  original: string;
  url: string;
  className: string;
}) {
  return (
    <>
      Showing results for <strong className={`${className}-query`}>{correction}</strong> — search instead for{' '}
      <a className={`${className}-original`} href={url}>
        {original}
      </a>
    </>
  );
}
