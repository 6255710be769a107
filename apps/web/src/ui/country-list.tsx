import { useCountryCodes } from '../api/queries';
import { ChoiceList } from './choice-list';
import { countryChoices, useCountryOptions } from './pickers';
import { QueryError } from './query-error';
import { PageSpinner } from './spinner';

export interface CountryListProps {
  legend: string;
  value: string | null;
  onChange: (code: string) => void;
  withDialCode?: boolean;
  mode?: 'radio' | 'button';
}

/** The searchable list of countries and regions, named in the interface language. */
export function CountryList({
  legend,
  value,
  onChange,
  withDialCode = false,
  mode = 'radio',
}: CountryListProps) {
  const { countries, isLoading, error } = useCountryOptions();
  const { refetch } = useCountryCodes();
  if (isLoading) return <PageSpinner />;
  if (error) return <QueryError error={error} onRetry={() => void refetch()} />;
  return (
    <ChoiceList
      legend={legend}
      name="country"
      searchable
      choices={countryChoices(countries, withDialCode)}
      value={value}
      onChange={onChange}
      mode={mode}
    />
  );
}
