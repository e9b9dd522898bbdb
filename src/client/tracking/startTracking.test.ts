import { describe, expect, it, vi } from 'vitest';
import { startTracking } from './startTracking';

describe('startTracking', () => {
  it('logs an error and tracks nothing when the page has no settings object', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetch = vi.spyOn(globalThis, 'fetch');
    startTracking(null);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('settings'));
    expect(fetch).not.toHaveBeenCalled();
    error.mockRestore();
    fetch.mockRestore();
  });
});
