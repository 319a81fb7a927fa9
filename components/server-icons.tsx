import type { ReactNode } from "react";

// lucide-react's Icon is a client component: each icon a server component draws through it puts lucide's runtime in
// the page's scripts. The same drawings as plain SVG, for pages whose own client code is kept minimal (the payer's
// page, and not-found and forbidden, whose boundaries load on every page). Always decorative.
type TServerIconProps = { className?: string };

function SvgIcon({ name, className, children }: TServerIconProps & { name: string; children: ReactNode }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={className ? `lucide lucide-${name} ${className}` : `lucide lucide-${name}`}
    >
      {children}
    </svg>
  );
}

export function FileQuestionIcon({ className }: TServerIconProps) {
  return (
    <SvgIcon name="file-question-mark" className={className}>
      <path d="M6 22a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h8a2.4 2.4 0 0 1 1.704.706l3.588 3.588A2.4 2.4 0 0 1 20 8v12a2 2 0 0 1-2 2z" />
      <path d="M9 9.5a3 2.5 0 016 0c0 2-2 2-3 3.5" />
      <path d="M12 17h.01" />
    </SvgIcon>
  );
}

export function ShieldXIcon({ className }: TServerIconProps) {
  return (
    <SvgIcon name="shield-x" className={className}>
      <path d="M20 13c0 5-3.5 7.5-7.66 8.95a1 1 0 0 1-.67-.01C7.5 20.5 4 18 4 13V6a1 1 0 0 1 1-1c2 0 4.5-1.2 6.24-2.72a1.17 1.17 0 0 1 1.52 0C14.51 3.81 17 5 19 5a1 1 0 0 1 1 1z" />
      <path d="m14.5 9.5-5 5" />
      <path d="m9.5 9.5 5 5" />
    </SvgIcon>
  );
}

export function CreditCardIcon({ className }: TServerIconProps) {
  return (
    <SvgIcon name="credit-card" className={className}>
      <rect width="20" height="14" x="2" y="5" rx="2" />
      <line x1="2" x2="22" y1="10" y2="10" />
      <path d="M6 14h2" />
    </SvgIcon>
  );
}

export function QrCodeIcon({ className }: TServerIconProps) {
  return (
    <SvgIcon name="qr-code" className={className}>
      <rect width="5" height="5" x="3" y="3" rx="1" />
      <rect width="5" height="5" x="16" y="3" rx="1" />
      <rect width="5" height="5" x="3" y="16" rx="1" />
      <path d="M21 16h-3a2 2 0 0 0-2 2v3" />
      <path d="M21 21v.01" />
      <path d="M12 7v3a2 2 0 0 1-2 2H7" />
      <path d="M3 12h.01" />
      <path d="M12 3h.01" />
      <path d="M12 16v.01" />
      <path d="M16 12h1" />
      <path d="M21 12v.01" />
      <path d="M12 21v-1" />
    </SvgIcon>
  );
}

export function LockIcon({ className }: TServerIconProps) {
  return (
    <SvgIcon name="lock" className={className}>
      <rect width="18" height="11" x="3" y="11" rx="2" ry="2" />
      <path d="M7 11V7a5 5 0 0 1 10 0v4" />
    </SvgIcon>
  );
}

export function CircleCheckIcon({ className }: TServerIconProps) {
  return (
    <SvgIcon name="circle-check" className={className}>
      <circle cx="12" cy="12" r="10" />
      <path d="m16 9-5.5 5.5L8 12" />
    </SvgIcon>
  );
}

export function TimerOffIcon({ className }: TServerIconProps) {
  return (
    <SvgIcon name="timer-off" className={className}>
      <path d="M10 2h4" />
      <path d="M4.6 11a8 8 0 0 0 1.7 8.7 8 8 0 0 0 8.7 1.7" />
      <path d="M7.4 7.4a8 8 0 0 1 10.3 1 8 8 0 0 1 .9 10.2" />
      <path d="m2 2 20 20" />
      <path d="M12 12v-2" />
    </SvgIcon>
  );
}

export function BanIcon({ className }: TServerIconProps) {
  return (
    <SvgIcon name="ban" className={className}>
      <circle cx="12" cy="12" r="10" />
      <path d="M4.929 4.929 19.07 19.071" />
    </SvgIcon>
  );
}

export function CircleAlertIcon({ className }: TServerIconProps) {
  return (
    <SvgIcon name="circle-exclamation-point" className={className}>
      <circle cx="12" cy="12" r="10" />
      <line x1="12" x2="12" y1="8" y2="12" />
      <line x1="12" x2="12.01" y1="16" y2="16" />
    </SvgIcon>
  );
}
