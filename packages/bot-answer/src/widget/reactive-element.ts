/** How a property is declared in `static properties` (the subset of Lit's declarations the element uses). */
export interface PropertyDeclaration {
  /** The attribute's name (default: the property's name in kebab case, `botId` → `bot-id`); `false` for a property without one. */
  attribute?: string | false;
  /** Reads the attribute's value (null when it is removed) into the property's; without it, the text itself. */
  converter?: (value: string | null) => unknown;
  /** Write the property back to its attribute on every update. */
  reflect?: boolean;
}

/** Per class, made when it is defined (with its accessors): attribute name to property name, and the reflecting properties with their attribute. */
const classes = new WeakMap<Function, { attributes: Record<string, string>; reflect: [string, string][] }>();

/**
 * Settles in a task after the one that evaluated this module. Every render awaits it: the first ones (of the
 * elements in the page, upgraded as the element is defined) come in a task of their own, so the script's task
 * and the first render do not make one long task (over 50 ms at 4x CPU); after that, it is a microtask, as in Lit.
 */
const scriptDone = new Promise((r) => setTimeout(r));

/** Whether HTMLElement has the property itself (`lang`): it keeps its own accessor, which reflects by itself. */
const native = (name: string) => name in HTMLElement.prototype;

/**
 * A small custom-element base with Lit's shape, for the loader, which must not bring Lit: properties declared
 * in `static properties` (same format) become accessors that read their attribute, reflect when asked and
 * batch a re-render into one `update()` per microtask, and `updateComplete` works as in Lit. A property set
 * on the element before it was defined (by a framework, before the script arrived) is kept. Nothing is
 * rendered until the element is connected.
 */
export abstract class ReactiveElement extends HTMLElement {
  /** The element's reactive properties (each subclass declares its own). */
  declare static properties: Record<string, PropertyDeclaration>;

  /** The attributes the element listens to, one per reactive property that has one. Read once, when the class is defined: its accessors are made then. */
  static get observedAttributes(): string[] {
    let c = classes.get(this);
    if (!c) {
      classes.set(this, (c = { attributes: {}, reflect: [] }));
      for (const [name, d] of Object.entries(this.properties)) {
        const attribute = d.attribute || name.replace(/[A-Z]/g, '-$&').toLowerCase();
        if (d.attribute !== false) c.attributes[attribute] = name;
        if (!native(name)) {
          if (d.reflect) c.reflect.push([name, attribute]);
          Object.defineProperty(this.prototype, name, {
            get(this: ReactiveElement) {
              return this._values[name];
            },
            set(this: ReactiveElement, value: unknown) {
              const old = this._values[name];
              this._values[name] = value;
              if (old !== value) this.requestUpdate();
            },
          });
        }
      }
    }
    return Object.keys(c.attributes);
  }

  private _values: Record<string, unknown> = {};
  /** Properties set on the element before it was upgraded, applied when it connects. */
  private _early: Record<string, unknown> = {};
  private _pending?: Promise<boolean>;

  constructor() {
    super();
    // Before the subclass's field initializers, which would otherwise overwrite them.
    for (const name in (this.constructor as typeof ReactiveElement).properties) {
      if (this.hasOwnProperty(name)) {
        this._early[name] = this[name as keyof this];
        delete this[name as keyof this];
      }
    }
  }

  /**
   * Resolves when the element has rendered every change made so far: to true, or false when another
   * update was requested meanwhile.
   */
  get updateComplete(): Promise<boolean> {
    return this._pending ?? Promise.resolve(true);
  }

  /** Schedules an update: at most one per microtask, however many changes come. */
  requestUpdate() {
    this._pending ??= this._enqueue();
  }

  connectedCallback() {
    Object.assign(this, this._early);
    this._early = {};
    this.requestUpdate();
  }

  attributeChangedCallback(attribute: string, _old: string | null, value: string | null) {
    const name = classes.get(this.constructor)!.attributes[attribute]!;
    const d = (this.constructor as typeof ReactiveElement).properties[name]!;
    if (native(name)) this.requestUpdate();
    else (this as Record<string, unknown>)[name] = d.converter ? d.converter(value) : value;
  }

  /** Renders the element's current state. */
  protected abstract update(): void;

  private async _enqueue(): Promise<boolean> {
    await scriptDone;
    this._pending = undefined;
    // Not on the page: nothing to render (connecting asks again).
    if (this.isConnected) {
      for (const [name, attribute] of classes.get(this.constructor)!.reflect) {
        const value = this._values[name];
        const text = value === true ? '' : '' + value;
        // Writing the attribute sets the property again, to the same value: no further update.
        if (value == null || value === false) this.removeAttribute(attribute);
        else if (this.getAttribute(attribute) !== text) this.setAttribute(attribute, text);
      }
      this.update();
    }
    return !this._pending;
  }
}
