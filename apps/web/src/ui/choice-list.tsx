import { CheckOutline, SearchOutline } from 'antd-mobile-icons';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterBySearch } from './search';
import './choice-list.css';

export interface Choice {
  value: string;
  /** Part of the radio's accessible name. */
  primary: string;
  /** Second line; part of the name when `secondaryInName`, else its description. */
  secondary?: string;
  /** Shown at the end of the row (e.g. a dial code) and described, not named. */
  aside?: string;
  /** Extra text the search matches (other names, codes). */
  keywords?: string;
}

export interface ChoiceListProps {
  legend: string;
  name: string;
  choices: readonly Choice[];
  value: string | null;
  onChange: (value: string) => void;
  searchable?: boolean;
  secondaryInName?: boolean;
  /**
   * `radio` (default) for a choice confirmed elsewhere; `button` when picking one
   * acts at once (the area-code list), so arrow keys do not pick by accident.
   */
  mode?: 'radio' | 'button';
}

/** A searchable list of radio buttons: countries, languages, interface languages. */
export function ChoiceList({
  legend,
  name,
  choices,
  value,
  onChange,
  searchable = false,
  secondaryInName = false,
  mode = 'radio',
}: ChoiceListProps) {
  const { t } = useTranslation();
  const baseId = useId();
  const [query, setQuery] = useState('');
  const listRef = useRef<HTMLFieldSetElement>(null);
  const scrolled = useRef(false);
  const visible = useMemo(
    () =>
      filterBySearch(choices, query, (choice) =>
        [choice.primary, choice.secondary, choice.aside, choice.keywords, choice.value]
          .filter(Boolean)
          .join(' '),
      ),
    [choices, query],
  );

  useEffect(() => {
    // A searchable list is a picker of many (countries, languages): it brings the current
    // choice into view once, when it first has it. A few choices among a page's settings
    // leave the page at its top.
    if (!searchable || scrolled.current || choices.length === 0) return;
    scrolled.current = true;
    listRef.current?.querySelector('[data-current="true"]')?.scrollIntoView?.({ block: 'center' });
  }, [searchable, choices.length]);

  return (
    <>
      {searchable ? (
        <div className="tt-search" role="search">
          <div className="tt-field-control">
            <SearchOutline className="tt-search-icon" aria-hidden />
            <input
              type="search"
              dir="auto"
              className="tt-input"
              aria-label={t('common.search')}
              placeholder={t('common.search')}
              value={query}
              autoComplete="off"
              onChange={(event) => setQuery(event.target.value)}
              // Enter in the search box filters; it must not submit the surrounding form.
              onKeyDown={(event) => {
                if (event.key === 'Enter') event.preventDefault();
              }}
            />
          </div>
        </div>
      ) : null}
      <fieldset className="tt-choice-list" ref={listRef}>
        <legend className="tt-visually-hidden">{legend}</legend>
        {visible.map((choice) => {
          const id = `${baseId}-${choice.value}`;
          const labelledBy = secondaryInName && choice.secondary ? `${id}-p ${id}-s` : `${id}-p`;
          const describedBy =
            [
              !secondaryInName && choice.secondary ? `${id}-s` : null,
              choice.aside ? `${id}-a` : null,
            ]
              .filter(Boolean)
              .join(' ') || undefined;
          const content = (
            <>
              <span className="tt-choice-text">
                <span id={`${id}-p`} className="tt-choice-primary">
                  {choice.primary}
                </span>
                {choice.secondary ? (
                  <span id={`${id}-s`} className="tt-choice-secondary">
                    {choice.secondary}
                  </span>
                ) : null}
              </span>
              {choice.aside ? (
                <span id={`${id}-a`} className="tt-choice-aside">
                  {choice.aside}
                </span>
              ) : null}
              <CheckOutline className="tt-choice-check" aria-hidden />
            </>
          );
          const current = choice.value === value;
          if (mode === 'button') {
            return (
              <button
                key={choice.value}
                type="button"
                className="tt-choice"
                data-current={current}
                aria-current={current || undefined}
                aria-labelledby={labelledBy}
                aria-describedby={describedBy}
                onClick={() => onChange(choice.value)}
              >
                {content}
              </button>
            );
          }
          return (
            <label key={choice.value} className="tt-choice" htmlFor={id} data-current={current}>
              <input
                id={id}
                type="radio"
                name={name}
                value={choice.value}
                checked={current}
                aria-labelledby={labelledBy}
                aria-describedby={describedBy}
                onChange={() => onChange(choice.value)}
              />
              {content}
            </label>
          );
        })}
        {visible.length === 0 ? <p className="tt-empty">{t('common.noMatches')}</p> : null}
      </fieldset>
    </>
  );
}
