import { describe, expect, it } from 'vitest';
import { approvalToast, chargeParts, depositReturnNote, holdNotice } from './money-wording.ts';

// 'Say what the money does' (decision 025): the words follow the flow of reservations/service.ts (held
// at the request, all of it charged at approval, the deposit refunded on return, released otherwise).

const borrower = { id: 'b', fullName: 'Jordan Lee', username: 'jordan', profileImage: null };

describe('money wording', () => {
  it('says at checkout what is held now and what approval charges', () => {
    expect(holdNotice({ rentalCents: 1000, serviceFeeCents: 0, depositCents: 2000 }, 'Maya Chen')).toBe(
      'We hold $30.00 on your card now; nothing is charged yet. If Maya Chen approves, your card is charged $30.00 ($10.00 rental and a $20.00 refundable deposit). If the request is declined or expires, the hold is released.',
    );
    expect(chargeParts({ rentalCents: 0, serviceFeeCents: 0, depositCents: 2500 })).toBe(
      'a $25.00 refundable deposit',
    );
    expect(chargeParts({ rentalCents: 1250, serviceFeeCents: 0, depositCents: 0 })).toBe('$12.50 rental');
  });

  it('tells the lender on approval what is charged now, what they earn and what goes back', () => {
    expect(
      approvalToast({ rentalAmount: '10.00', serviceFeeAmount: '0.00', depositAmount: '20.00', borrower }),
    ).toBe(
      'Jordan Lee has been notified. Their card is charged $30.00 now ($10.00 rental and a $20.00 refundable deposit). You earn the $10.00 rental. The deposit goes back to Jordan Lee when the item is returned.',
    );
    expect(
      approvalToast({ rentalAmount: '8.00', serviceFeeAmount: '0.00', depositAmount: '0.00', borrower }),
    ).toBe(
      'Jordan Lee has been notified. Their card is charged $8.00 now ($8.00 rental). You earn the $8.00 rental.',
    );
    expect(
      approvalToast({ rentalAmount: '0.00', serviceFeeAmount: '0.00', depositAmount: '0.00', borrower }),
    ).toBe('Jordan Lee has been notified. Nothing is charged: this item is free.');
    // Never the spec's old promise of a payment still to come.
    expect(
      approvalToast({ rentalAmount: '10.00', serviceFeeAmount: '0.00', depositAmount: '20.00', borrower }),
    ).not.toMatch(/proceed with payment/);
  });

  it('says where a deposit goes back, only when there is one', () => {
    expect(depositReturnNote({ rentalCents: 0, serviceFeeCents: 0, depositCents: 4000 }, 'you')).toBe(
      'The $40.00 deposit is refunded to your card when the item is returned.',
    );
    expect(depositReturnNote({ rentalCents: 500, serviceFeeCents: 0, depositCents: 0 }, 'them')).toBeNull();
  });
});

describe('the service fee in the money words', () => {
  it('is its own part of what is held and charged', () => {
    const a = { rentalCents: 1000, serviceFeeCents: 100, depositCents: 2000 };
    expect(holdNotice(a, 'Maya Chen')).toBe(
      'We hold $31.00 on your card now; nothing is charged yet. If Maya Chen approves, your card is charged $31.00 ($10.00 rental, a $1.00 service fee and a $20.00 refundable deposit). If the request is declined or expires, the hold is released.',
    );
    expect(chargeParts({ rentalCents: 1250, serviceFeeCents: 125, depositCents: 0 })).toBe(
      '$12.50 rental and a $1.25 service fee',
    );
  });

  it('tells the lender they earn the rental, not the fee', () => {
    expect(
      approvalToast({ rentalAmount: '10.00', serviceFeeAmount: '1.00', depositAmount: '0.00', borrower }),
    ).toBe(
      'Jordan Lee has been notified. Their card is charged $11.00 now ($10.00 rental and a $1.00 service fee). You earn the $10.00 rental.',
    );
  });
});
