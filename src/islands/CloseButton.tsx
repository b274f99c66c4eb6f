import { DIALOG_CLOSE } from '../domain/hand-over';

interface Props {
  onClick: () => void;
  label?: string;
}

/** The round close control of the modal dialogs; DIALOG_CLOSE lets the first move use it before hydration. */
export default function CloseButton({ onClick, label = 'Close' }: Props) {
  return (
    <button type="button" className="icon-button" {...{ [DIALOG_CLOSE]: '' }} onClick={onClick}>
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d="M6 6l12 12M18 6 6 18"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </svg>
      <span className="visually-hidden">{label}</span>
    </button>
  );
}
