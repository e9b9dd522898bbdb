import { describe, expect, it } from 'vitest';
import { toAttributionFields } from './attributionFields';
import { readTrafficData } from './computeTrafficCookies';

describe('toAttributionFields', () => {
  it('gives no field, not even a device type, when the browser has no attribution cookies', () => {
    expect(toAttributionFields(readTrafficData(new Map()))).toEqual({});
  });

  it('derives the device type from the stored user agent', () => {
    const udata = encodeURIComponent(
      'vst=1|||uip=(none)|||uag=Mozilla/5.0 (iPad; CPU OS 17_0) Mobile/15E148',
    );
    expect(toAttributionFields(readTrafficData(new Map([['sbjs_udata', udata]])))).toMatchObject({
      device_type: 'Tablet',
      session_count: '1',
    });
  });
});
