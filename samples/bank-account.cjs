// Exercises: an ES6 class in a CommonJS module that requires a sibling module; methods that throw on bad amounts and a transfer taking another instance.

'use strict';

const { formatCents, toCents } = require('./money-format');

/** Raised when a withdrawal or transfer asks for more than the balance. */
class InsufficientFundsError extends Error {
  constructor(balance, requested) {
    super(`insufficient funds: balance ${balance}, requested ${requested}`);
    this.name = 'InsufficientFundsError';
  }
}

/**
 * A bank account holding whole cents, to avoid rounding drift.  Amounts
 * given to its methods are in currency units (12.34); `balance` is in units
 * too.
 */
class BankAccount {
  constructor(owner, currency = 'EUR') {
    this.owner = owner;
    this.currency = currency;
    this.cents = 0;
    this.closed = false;
    this.history = [];
  }

  get balance() {
    return this.cents / 100;
  }

  /** Adds money; the amount must be positive. Returns the new balance. */
  deposit(amount) {
    const cents = this.#checkedCents(amount);
    this.cents += cents;
    this.history.push({ type: 'deposit', cents });
    return this.balance;
  }

  /** Takes money out; throws when the balance does not cover it. */
  withdraw(amount) {
    const cents = this.#checkedCents(amount);
    if (cents > this.cents) {
      throw new InsufficientFundsError(this.format(this.cents), this.format(cents));
    }
    this.cents -= cents;
    this.history.push({ type: 'withdrawal', cents });
    return this.balance;
  }

  /** Moves money to another account of the same currency. */
  transfer(toAccount, amount) {
    if (toAccount === this) {
      throw new Error('cannot transfer to the same account');
    }
    if (toAccount.currency !== this.currency) {
      throw new Error(`cannot transfer ${this.currency} to a ${toAccount.currency} account`);
    }
    this.withdraw(amount);
    toAccount.deposit(amount);
    return this.balance;
  }

  /** Closes the account; only an empty account can be closed. */
  close() {
    if (this.cents !== 0) {
      throw new Error(`account still holds ${this.format(this.cents)}`);
    }
    this.closed = true;
  }

  /** An amount of cents in this account's currency, e.g. '€12.30'. */
  format(cents) {
    return formatCents(cents, this.currency);
  }

  /** One line per operation, then the balance. */
  statement() {
    const lines = this.history.map(({ type, cents }) =>
      `${type === 'deposit' ? '+' : '-'} ${this.format(cents)}`);
    lines.push(`balance ${this.format(this.cents)}`);
    return lines.join('\n');
  }

  #checkedCents(amount) {
    if (this.closed) {
      throw new Error('account is closed');
    }
    if (!(amount > 0) || !Number.isFinite(amount)) {
      throw new RangeError(`amount must be a positive number, got ${amount}`);
    }
    return toCents(amount);
  }
}

module.exports = { BankAccount, InsufficientFundsError };
