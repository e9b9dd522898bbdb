/** ISO timestamps: `from` inclusive, `to` exclusive. */
export interface DateRange {
  from: string;
  to: string;
}
