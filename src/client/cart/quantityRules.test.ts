import { describe, expect, it } from 'vitest';
import { raiseToMinimum, readQuantityRules, stepQuantity } from './quantityRules';

const rules = (min: string | null, max: string | null, step: string | null = null) =>
  readQuantityRules({ min, max, step });

describe('readQuantityRules', () => {
  it('defaults the step to 1 when missing, empty, zero or "any"', () => {
    for (const step of [null, '', '0', 'any', '-2']) expect(rules('1', null, step).step).toBe(1);
  });
  it('falls back for every rule when the input has no attributes at all', () => {
    expect(readQuantityRules({})).toEqual({ min: null, max: null, step: 1 });
  });
  it('reads no maximum from an empty or missing attribute', () => {
    expect(rules('0', '').max).toBeNull();
    expect(rules('0', null).max).toBeNull();
    expect(rules('0', '  ').max).toBeNull();
    expect(stepQuantity('1', rules('0', '  '), 1)).toBe('2');
  });
  it('reads an unreadable minimum as none, so minus still stops at zero', () => {
    expect(rules('abc', null).min).toBeNull();
    expect(stepQuantity('0', rules('abc', null), -1)).toBe('0');
  });
});

describe('stepQuantity', () => {
  it('adds and subtracts the step', () => {
    expect(stepQuantity('2', rules('1', '10'), 1)).toBe('3');
    expect(stepQuantity('2', rules('1', '10'), -1)).toBe('1');
    expect(stepQuantity('4', rules('0', null, '2'), 1)).toBe('6');
  });
  it('never passes the maximum', () => {
    expect(stepQuantity('10', rules('1', '10'), 1)).toBe('10');
    expect(stepQuantity('9', rules('1', '10', '3'), 1)).toBe('10');
    expect(stepQuantity('12', rules('1', '10'), 1)).toBe('10');
  });
  it('lets minus bring a value above the maximum down one step at a time', () => {
    expect(stepQuantity('12', rules('1', '10'), -1)).toBe('11');
  });
  it("lets plus add one step to a value below the minimum (raising it is the page load's job)", () => {
    expect(stepQuantity('0', rules('3', null), 1)).toBe('1');
  });
  it('shows a whole number for an integer step, whatever the value held', () => {
    expect(stepQuantity('2.5', rules('0', null), 1)).toBe('4');
  });
  it('never goes below the minimum', () => {
    expect(stepQuantity('1', rules('1', null), -1)).toBe('1');
    expect(stepQuantity('2', rules('1', null, '5'), -1)).toBe('1');
  });
  it('never goes below zero, even with a negative or missing minimum', () => {
    expect(stepQuantity('0', rules('-5', null), -1)).toBe('0');
    expect(stepQuantity('0', rules(null, null), -1)).toBe('0');
  });
  it('shows one decimal for a non-integer step, without floating-point drift', () => {
    expect(stepQuantity('0.2', rules('0', null, '0.1'), 1)).toBe('0.3');
    expect(stepQuantity('1', rules('0', null, '0.5'), -1)).toBe('0.5');
    expect(stepQuantity('2', rules('0', null, '0.5'), 1)).toBe('2.5');
  });
  it('treats an empty or unreadable value as zero', () => {
    expect(stepQuantity('', rules('0', null), 1)).toBe('1');
    expect(stepQuantity('abc', rules('1', null), 1)).toBe('1');
  });
});

describe('raiseToMinimum', () => {
  it('raises a value below a positive minimum to it', () => {
    expect(raiseToMinimum('1', rules('3', null))).toBe('3');
    expect(raiseToMinimum('', rules('2', null))).toBe('2');
  });
  it('leaves values at or above the minimum, and a zero or missing minimum, alone', () => {
    expect(raiseToMinimum('5', rules('3', null))).toBe('5');
    expect(raiseToMinimum('0', rules('0', null))).toBe('0');
    expect(raiseToMinimum('', rules(null, null))).toBe('');
    expect(raiseToMinimum('-1', rules('0', null))).toBe('-1');
    expect(raiseToMinimum('3.0', rules('3', null))).toBe('3.0');
  });
});
