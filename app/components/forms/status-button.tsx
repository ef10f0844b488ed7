import { Icon } from "~/components/ui/icon";
import { useNavigation, useFormAction } from "react-router";
import { Button, type ButtonProps } from "~/components/ui/button";

/** True while this page's form (or `formAction`) is being submitted. */
export function useIsPending({ formAction, formMethod = "POST" }: { formAction?: string; formMethod?: "POST" | "GET" } = {}) {
  const contextual = useFormAction();
  const navigation = useNavigation();
  return (
    navigation.state !== "idle" &&
    navigation.formMethod === formMethod &&
    (navigation.formAction ?? "").split("?")[0] === (formAction ?? contextual).split("?")[0]
  );
}

/** The submit button of every form: disabled with a spinner while its submission is pending. */
export function StatusButton({ pending, children, disabled, ...props }: ButtonProps & { pending: boolean }) {
  return (
    <Button {...props} disabled={disabled || pending} aria-busy={pending || undefined}>
      {pending ? <Icon name="loader-circle" className="animate-spin" /> : null}
      {children}
    </Button>
  );
}
