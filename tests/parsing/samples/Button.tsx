import React from "react";

type Props = { label: string; onClick: () => void };

/** A clickable button. */
export const Button = ({ label, onClick }: Props) => {
  return <button onClick={onClick}>{label}</button>;
};

export default function Toolbar() {
  return (
    <div>
      <Button label="Save" onClick={() => {}} />
    </div>
  );
}
