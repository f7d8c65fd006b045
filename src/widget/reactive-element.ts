/** How a property is declared in `static properties` (the subset of Lit's declarations the element uses). */
export interface PropertyDeclaration {
  /** The attribute's name (default: the property's name in lower case); `false` for a property without one. */
  attribute?: string | false;
  /** `Boolean`: present is true; `Number`: the attribute's text as a number. Otherwise the text itself. */
  type?: BooleanConstructor | NumberConstructor;
  /** Reads the attribute's value (null when it is removed) into the property's. */
  converter?: { fromAttribute(value: string | null): unknown };
  /** Write the property back to its attribute on every update. */
  reflect?: boolean;
}

/** Lit's inequality: a change, where NaN equals NaN. */
const changed = (a: unknown, b: unknown) => a !== b && (a === a || b === b);

/** Attribute name to property name, per class (made when the class is defined, with its accessors). */
const attributeMaps = new WeakMap<typeof ReactiveElement, Map<string, string>>();

/**
 * A small custom-element base with Lit's shape, for the loader, which must not bring Lit: properties declared
 * in `static properties` (same format) become accessors that read their attribute, reflect when asked and
 * batch a re-render into one `update()` per microtask, and `updateComplete` works as in Lit. A property set
 * on the element before it was defined (by a framework, before the script arrived) is kept. Nothing is
 * rendered until the element is connected.
 */
export abstract class ReactiveElement extends HTMLElement {
  /** The element's reactive properties. */
  static properties: Record<string, PropertyDeclaration> = {};

  /** The attributes the element listens to: one per reactive property that has one. */
  static get observedAttributes(): string[] {
    return [...this._finalize().keys()];
  }

  /** Makes the accessors of every reactive property (once) and returns the attribute map. */
  private static _finalize(): Map<string, string> {
    let attributes = attributeMaps.get(this);
    if (!attributes) {
      attributeMaps.set(this, (attributes = new Map()));
      for (const [name, d] of Object.entries(this.properties)) {
        if (d.attribute !== false) attributes.set(d.attribute || name.toLowerCase(), name);
        // A property HTMLElement already has (`lang`) keeps its own accessor, which reflects by itself.
        if (!(name in HTMLElement.prototype)) {
          Object.defineProperty(this.prototype, name, {
            get(this: ReactiveElement) {
              return this._values.get(name);
            },
            set(this: ReactiveElement, value: unknown) {
              const old = this._values.get(name);
              this._values.set(name, value);
              if (changed(old, value)) this.requestUpdate(name);
            },
            configurable: true,
          });
        }
      }
    }
    return attributes;
  }

  private _values = new Map<string, unknown>();
  /** Properties set on the element before it was upgraded, applied when it connects. */
  private _early?: [string, unknown][];
  /** Properties changed since the last update. */
  private _changed = new Set<string>();
  /** The attribute being written from its property (its change callback must not write the property back). */
  private _reflecting?: string;
  private _pending?: Promise<boolean>;

  constructor() {
    super();
    // Before the subclass's field initializers, which would otherwise overwrite them.
    for (const name in (this.constructor as typeof ReactiveElement).properties) {
      if (Object.hasOwn(this, name)) {
        (this._early ??= []).push([name, this[name as keyof this]]);
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

  /** Schedules an update (at most one per microtask); `name` is a property that changed, if any. */
  requestUpdate(name?: string) {
    if (name) this._changed.add(name);
    this._pending ??= this._enqueue();
  }

  connectedCallback() {
    if (this._early) for (const [name, value] of this._early.splice(0)) (this as Record<string, unknown>)[name] = value;
    this.requestUpdate();
  }

  disconnectedCallback() {}

  attributeChangedCallback(attribute: string, _old: string | null, value: string | null) {
    const name = (this.constructor as typeof ReactiveElement)._finalize().get(attribute)!;
    if (attribute == this._reflecting) return;
    if (name in HTMLElement.prototype) return this.requestUpdate(name);
    const d = (this.constructor as typeof ReactiveElement).properties[name]!;
    (this as Record<string, unknown>)[name] = d.converter
      ? d.converter.fromAttribute(value)
      : d.type == Boolean
        ? value != null
        : d.type == Number && value != null
          ? Number(value)
          : value;
  }

  /** Renders the changes (`changed`: the properties set since the last update). */
  protected abstract update(changed: Set<string>): void;

  private async _enqueue(): Promise<boolean> {
    await null;
    // Not on the page: nothing to render (connecting asks again).
    if (this.isConnected) {
      const changes = this._changed;
      this._changed = new Set();
      const props = (this.constructor as typeof ReactiveElement).properties;
      for (const name of changes) {
        const d = props[name]!;
        if (!d.reflect || name in HTMLElement.prototype) continue;
        const attribute = d.attribute || name.toLowerCase();
        const value = this._values.get(name);
        this._reflecting = attribute;
        if (value == null || value === false) this.removeAttribute(attribute);
        else this.setAttribute(attribute, value === true ? '' : String(value));
        this._reflecting = undefined;
      }
      this._pending = undefined;
      this.update(changes);
    } else this._pending = undefined;
    return !this._pending;
  }
}
