import { DISPUTE_OUTCOME_TEXTS, DISPUTE_TARGET_DAYS, type EventData, formatEin } from '@mrn/contracts';
import type { Mail } from '@mrn/platform';

/** Who the business owner is and what they disputed, as the dispute's own stream records it. */
export interface DisputeAddressee {
  disputeId: string;
  email: string;
  firstName: string;
  lastName: string;
  legalName: string;
  fein: string;
}

const greeting = (d: DisputeAddressee) => `Dear ${d.firstName} ${d.lastName},`;
const subjectOf = (d: DisputeAddressee) => `${d.legalName} (EIN ${formatEin(d.fein)})`;

/** The acknowledgement sent when a dispute is received. */
export function receivedMail(d: DisputeAddressee, productName: string): Mail {
  return {
    to: d.email,
    subject: `We received your dispute about ${d.legalName}`,
    text: [
      greeting(d),
      '',
      `We received your dispute about ${subjectOf(d)}. Your reference is ${d.disputeId}.`,
      '',
      `Our staff will review it and write to you at this address once it is resolved. We aim to resolve every dispute within ${DISPUTE_TARGET_DAYS} days.`,
      '',
      productName,
    ].join('\n'),
  };
}

/**
 * The outcome in plain words, with the explanation staff wrote for the owner. Internal comments are
 * never part of it: they are not in the event this mail is made from.
 */
export function resolvedMail(
  d: DisputeAddressee,
  resolved: Pick<EventData<'DisputeResolved'>, 'resolution' | 'explanation'>,
  productName: string,
): Mail {
  return {
    to: d.email,
    subject: `Your dispute about ${d.legalName} has been resolved`,
    text: [
      greeting(d),
      '',
      `We have reviewed your dispute about ${subjectOf(d)} (reference ${d.disputeId}).`,
      '',
      `Outcome: ${DISPUTE_OUTCOME_TEXTS[resolved.resolution]}`,
      ...(resolved.explanation ? ['', resolved.explanation] : []),
      '',
      productName,
    ].join('\n'),
  };
}
