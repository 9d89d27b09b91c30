import { H3, H4 } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '../../product.ts';
import { PATHS } from '../../routing/paths.ts';

/** Date the current terms and privacy policy took effect. */
export const LEGAL_EFFECTIVE_DATE = 'January 1, 2026';

/** The Terms of Use, shown on /terms_of_use and on the agreement step /agree_to_terms. */
export function TermsOfUseText() {
  return (
    <div className="bp6-running-text mrn-legal">
      <p className="bp6-text-muted">Effective {LEGAL_EFFECTIVE_DATE}</p>
      <p>
        These Terms of Use govern access to and use of {PRODUCT_NAME} (the "Network"), its website, dashboard
        and application programming interface. By signing in, creating an account or using the Network you
        agree to these terms on behalf of yourself and the funder organisation you represent (your "Member
        Organisation").
      </p>

      <H3>1. What the Network is</H3>
      <p>
        The Network is a shared, members-only database in which funders in alternative business financing
        record and look up information about <strong>commercial entities</strong>, including sole proprietors
        acting in a business capacity, such as payment performance, stacking, suspected fraud and other
        business-to-business experiences ("Records").
      </p>
      <p>
        <strong>The Network is not a consumer reporting agency and Records are not consumer reports</strong>{' '}
        within the meaning of the Fair Credit Reporting Act or any similar law. You must not use the Network,
        or any information obtained from it, as a factor in establishing an individual's eligibility for
        personal, family or household credit, insurance, employment, housing or any other purpose covered by
        those laws.
      </p>

      <H3>2. Eligibility and accounts</H3>
      <ul>
        <li>You must be at least 18 years old and authorised to act for your Member Organisation.</li>
        <li>
          Access is personal. Keep your password and any one-time-code device to yourself, and tell us at once
          if you suspect your account has been used by someone else.
        </li>
        <li>
          Your Member Organisation's administrators may add, change and archive users of its account and are
          responsible for who holds access.
        </li>
        <li>
          API credentials are confidential and may only be used by systems your Member Organisation runs.
        </li>
      </ul>

      <H3>3. Contributing Records</H3>
      <p>
        Membership is a two-way exchange: members are expected to contribute Records about merchants they have
        funded or evaluated, and search access may be limited for accounts whose contribution falls below the
        published minimum. When you add a merchant or a note you confirm that:
      </p>
      <ul>
        <li>it concerns a commercial entity and a genuine business relationship or application;</li>
        <li>
          it is accurate, factual and not misleading to the best of your knowledge, and you can support it;
        </li>
        <li>it contains no personal information beyond what identifies the business and its principals;</li>
        <li>you have the right to share it and sharing it breaches no agreement or law.</li>
      </ul>
      <p>
        You remain responsible for what you contribute. We may edit, hide or remove any Record, and we keep a
        complete history of every change for audit and dispute purposes.
      </p>

      <H3>4. Permitted use</H3>
      <p>
        Information from the Network may be used only by your Member Organisation, only to evaluate,
        underwrite, service or collect commercial financing, and only together with your own judgement and
        other sources. You must not resell, publish, scrape, bulk-export or disclose Records to anyone outside
        your Member Organisation, use them to harass or threaten anyone, or try to reach data or functions you
        are not entitled to.
      </p>

      <H3>5. Disputes and retention</H3>
      <p>
        A business owner may dispute a Record at any time through the{' '}
        <Link to={PATHS.disputeProcess}>dispute process</Link>. We review every dispute, may ask the
        contributing member for support, and correct or remove Records that cannot be substantiated. Records
        older than seven (7) years are removed on the business owner's request under that dispute policy.
        Members must co-operate promptly with dispute reviews.
      </p>

      <H3>6. Fees</H3>
      <p>
        Paid plans are billed monthly in advance at the prices shown in the product. Plan changes are
        prorated. Fees are non-refundable except where the law requires otherwise. We may suspend access for
        unpaid fees.
      </p>

      <H3>7. Disclaimers and liability</H3>
      <p>
        Records are contributed by members and are provided "as is" without any warranty of accuracy,
        completeness or fitness for a purpose. To the fullest extent permitted by law, the Network and its
        operators are not liable for indirect, incidental or consequential losses, or for decisions you make
        using the Network, and our total liability is limited to the fees your Member Organisation paid in the
        twelve months before the claim. You will indemnify us against claims arising from Records you
        contributed or from your breach of these terms.
      </p>

      <H3>8. Suspension and termination</H3>
      <p>
        We may suspend or end access for a breach of these terms, for suspected misuse, or when a membership
        ends. Records you contributed remain in the Network after your membership ends.
      </p>

      <H3>9. Governing law</H3>
      <p>
        These terms are governed by the laws of the State of Florida, without regard to its conflict-of-law
        rules. The state and federal courts located in Florida have exclusive jurisdiction over any dispute
        arising from them.
      </p>

      <H3>10. Changes</H3>
      <p>
        We may update these terms. When we make a material change we will ask you to agree again at your next
        sign-in; continuing to use the Network means you accept the updated terms.
      </p>
    </div>
  );
}

export function PrivacyPolicyText() {
  return (
    <div className="bp6-running-text mrn-legal">
      <p className="bp6-text-muted">Effective {LEGAL_EFFECTIVE_DATE}</p>
      <p>
        This policy explains what information {PRODUCT_NAME} (the "Network") collects, how it is used and the
        choices available to you. The Network covers commercial entities only, including sole proprietors, and
        is not a consumer reporting agency.
      </p>

      <H3>Information we hold</H3>
      <H4>About member users</H4>
      <ul>
        <li>name, business e-mail address and the funder organisation you belong to;</li>
        <li>a hash of your password (never the password itself) and, when enabled, your MFA settings;</li>
        <li>
          sign-in and security data: IP address, browser description, remembered devices and the time of each
          sign-in, search and change you make.
        </li>
      </ul>
      <H4>About businesses (Records)</H4>
      <ul>
        <li>
          identifying details of the business: employer identification number, legal and trade names, address,
          telephone number, start date and industry;
        </li>
        <li>notes contributed by members about their business dealings with it;</li>
        <li>which members searched for it and when (search history).</li>
      </ul>
      <H4>About people who submit a dispute</H4>
      <p>
        Name, e-mail address and the details of the business and the dispute, used only to handle the dispute.
      </p>

      <H3>How we use it</H3>
      <ul>
        <li>to run the Network for its members and show Records to authorised member users;</li>
        <li>to secure accounts, prevent misuse and keep an audit trail of every change;</li>
        <li>to review disputes and correct or remove Records;</li>
        <li>
          to bill member organisations and to send service e-mails such as invitations and password resets.
        </li>
      </ul>
      <p>We do not sell personal information and do not use it for advertising.</p>

      <H3>Who can see it</H3>
      <p>
        Records are visible to member organisations. Who added a Record is shown only to the contributing
        organisation's administrators and to the Network's staff. We use service providers for hosting, e-mail
        and card payments, bound by confidentiality, and disclose information when the law requires it.
      </p>

      <H3>Retention</H3>
      <p>
        Member user data is kept while the account is active and for a limited time afterwards for audit.
        Records are kept while they are accurate and relevant; records older than seven (7) years are removed
        on the business owner's request under the <Link to={PATHS.disputeProcess}>dispute process</Link>.
      </p>

      <H3>Security</H3>
      <p>
        Passwords are stored with a modern one-way hash, sessions expire, multi-factor authentication is
        available and can be required per funder, and every change is recorded.
      </p>

      <H3>Your choices</H3>
      <p>
        Member users can update their profile at any time and ask their administrator to archive their access.
        Business owners can dispute a Record through the <Link to={PATHS.dispute}>dispute form</Link>.
      </p>

      <H3>Children</H3>
      <p>The Network is for business use by adults aged 18 or over and is not directed at children.</p>

      <H3>Changes and governing law</H3>
      <p>
        We will post any change to this policy here with a new effective date. This policy is governed by the
        laws of the State of Florida.
      </p>
    </div>
  );
}
