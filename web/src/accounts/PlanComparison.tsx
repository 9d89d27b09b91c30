import { HTMLTable, Icon, Intent, Tag } from '@blueprintjs/core';
import { COMING_SOON, type PlanLevel, type PlanOffer } from '@mrn/contracts';
import { planFeatureRows } from './plans.ts';
import './plan-comparison.css';

function Cell({ value }: { value: PlanOffer }) {
  if (value === true) return <Icon icon="tick" intent={Intent.SUCCESS} title="Included" />;
  if (value === false) return <Icon icon="minus" className="bp6-text-muted" title="Not included" />;
  if (value === COMING_SOON)
    return (
      <Tag intent={Intent.PRIMARY} minimal round>
        {value}
      </Tag>
    );
  return <>{value}</>;
}

/**
 * BASIC and PRO side by side (accounts spec §1); the current plan's column is marked. Prices (cents)
 * from the billing configuration when the screen has it, else the plan table's.
 */
export function PlanComparison({
  current,
  prices,
}: {
  current?: PlanLevel;
  prices?: Record<PlanLevel, number>;
}) {
  const mark = (plan: PlanLevel) => (plan === current ? ' (current)' : '');
  return (
    <div className="mrn-table-scroll">
      <HTMLTable className="mrn-table mrn-plan-table" compact>
        <caption className="mrn-visually-hidden">Plan comparison</caption>
        <thead>
          <tr>
            <th scope="col">Feature</th>
            <th scope="col">BASIC{mark('BASIC')}</th>
            <th scope="col">PRO{mark('PRO')}</th>
          </tr>
        </thead>
        <tbody>
          {planFeatureRows(prices).map((row) => (
            <tr key={row.feature}>
              <th scope="row">{row.feature}</th>
              <td>
                <Cell value={row.basic} />
              </td>
              <td>
                <Cell value={row.pro} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
