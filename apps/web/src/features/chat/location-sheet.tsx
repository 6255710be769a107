import { locationContentSchema, toFieldIssues, type LocationContent } from '@teltlk/protocol';
import { useId, useState, type FormEvent } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Button } from '../../ui/button';
import { ruleMessage } from '../../ui/error-message';
import { Sheet } from '../../ui/sheet';
import { TextField } from '../../ui/text-field';
import { useMessageText } from '../../ui/use-message';

/** Decimals a shared point keeps: about 10 cm, finer than any phone's fix. */
const COORDINATE_DECIMALS = 6;
/** How long the browser may look for a position before saying it cannot. */
const LOCATE_TIMEOUT_MS = 15_000;
/** A position this recent (taken for another page, say) is good enough. */
const LOCATE_MAX_AGE_MS = 60_000;

interface LocationSheetProps {
  visible: boolean;
  onClose: () => void;
  onSend: (place: LocationContent) => void;
}

/**
 * Shares a location: the current position (Geolocation API) or a point typed in, with a
 * place name the sender may edit. No map is shown: readers open the point in a map site.
 */
export function LocationSheet({ visible, onClose, onSend }: LocationSheetProps) {
  const { t } = usePageTexts();
  const formId = useId();
  return (
    <Sheet
      visible={visible}
      title={t('location.title')}
      onClose={onClose}
      action={{ label: t('chat.send'), form: formId }}
      className="tt-location-sheet"
    >
      <LocationForm
        id={formId}
        onSend={(place) => {
          onSend(place);
          onClose();
        }}
      />
    </Sheet>
  );
}

type Field = 'latitude' | 'longitude' | 'name';

function LocationForm({ id, onSend }: { id: string; onSend: (place: LocationContent) => void }) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const [latitude, setLatitude] = useState('');
  const [longitude, setLongitude] = useState('');
  const [name, setName] = useState('');
  const [locating, setLocating] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const locate = () => {
    if (!('geolocation' in navigator)) {
      setNotice(t('location.unsupported'));
      return;
    }
    setLocating(true);
    setNotice(null);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        setLatitude(position.coords.latitude.toFixed(COORDINATE_DECIMALS));
        setLongitude(position.coords.longitude.toFixed(COORDINATE_DECIMALS));
        setName((current) => current || t('location.myPosition'));
        setErrors({});
      },
      (failure) => {
        setLocating(false);
        setNotice(
          failure.code === failure.PERMISSION_DENIED
            ? t('location.denied')
            : t('location.unavailable'),
        );
      },
      { enableHighAccuracy: true, timeout: LOCATE_TIMEOUT_MS, maximumAge: LOCATE_MAX_AGE_MS },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const place = {
      kind: 'location' as const,
      latitude: coordinate(latitude),
      longitude: coordinate(longitude),
      name,
    };
    const parsed = locationContentSchema.safeParse(place);
    if (parsed.success) {
      onSend(parsed.data);
      return;
    }
    const found: Partial<Record<Field, string>> = {};
    for (const issue of toFieldIssues(parsed.error)) {
      const field = issue.path as Field;
      found[field] ??= text(ruleMessage(issue.rule)) ?? '';
    }
    setErrors(found);
  };

  return (
    <form id={id} className="tt-location-form" noValidate onSubmit={submit}>
      <Button variant="secondary" block onClick={locate} busy={locating}>
        {locating ? t('location.locating') : t('location.useCurrent')}
      </Button>
      {notice ? (
        <p className="tt-hint" role="status">
          {notice}
        </p>
      ) : null}
      <div className="tt-location-point">
        <TextField
          label={t('location.latitude')}
          value={latitude}
          onChange={setLatitude}
          inputMode="decimal"
          autoComplete="off"
          error={errors.latitude}
        />
        <TextField
          label={t('location.longitude')}
          value={longitude}
          onChange={setLongitude}
          inputMode="decimal"
          autoComplete="off"
          error={errors.longitude}
        />
      </div>
      <TextField
        label={t('location.name')}
        hint={t('location.nameHint')}
        value={name}
        onChange={setName}
        maxLength={200}
        error={errors.name}
      />
    </form>
  );
}

/** A typed coordinate; blank or not a number reads as NaN, which the schema refuses. */
function coordinate(value: string): number {
  const trimmed = value.trim().replace(',', '.').replace('−', '-');
  return trimmed === '' ? Number.NaN : Number(trimmed);
}
