import { Avatar } from './avatar';
import './sheet.css';

/** One person or chat to pick. */
export interface CheckItem {
  id: string;
  name: string;
  avatarUrl: string | null | undefined;
}

/** People or chats with checkboxes, each checkbox named by its row's name. */
export function CheckList({
  items,
  chosen,
  onToggle,
  className = 'tt-list',
}: {
  items: readonly CheckItem[];
  chosen: readonly string[];
  onToggle: (id: string, checked: boolean) => void;
  className?: string;
}) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.id}>
          <label className="tt-row tt-forward-row">
            <input
              type="checkbox"
              checked={chosen.includes(item.id)}
              onChange={(event) => onToggle(item.id, event.target.checked)}
            />
            <Avatar id={item.id} name={item.name} url={item.avatarUrl} size={36} />
            <span className="tt-row-label" dir="auto">
              {item.name}
            </span>
          </label>
        </li>
      ))}
    </ul>
  );
}
