// Exercises: a CommonJS helper module (functions only, no classes) loaded through an extensionless require from bank-account.cjs.

'use strict';

const SYMBOLS = { EUR: '€', GBP: '£', USD: '$' };

/**
 * Formats an amount of cents for people: 123456 in 'EUR' gives '€1,234.56',
 * -5 gives '-€0.05'.  Unknown currencies are written by code: '12.00 CHF'.
 */
function formatCents(cents, currency) {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(Math.round(cents));
  const whole = String(Math.floor(absolute / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = String(absolute % 100).padStart(2, '0');
  const symbol = SYMBOLS[currency];
  if (symbol === undefined) {
    return `${sign}${whole}.${fraction} ${currency}`;
  }
  return `${sign}${symbol}${whole}.${fraction}`;
}

/** Turns an amount in units (12.5) into whole cents (1250). */
function toCents(amount) {
  return Math.round(amount * 100);
}

module.exports = { formatCents, toCents };
