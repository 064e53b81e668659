import { formatPrice } from "./money.js";

const TAX_RATE = 0.2;

/**
 * A shopping cart that sums line items.
 */
export class Cart {
  constructor() {
    this.lines = [];
  }

  /** Adds a product line. */
  add(product, quantity) {
    this.lines.push({ product, quantity });
  }

  onChange = () => {
    this.render();
  };
}

/** Total price including tax. */
export function total(cart) {
  const net = cart.lines.reduce((sum, l) => sum + l.product.price * l.quantity, 0);
  return net * (1 + TAX_RATE);
}

export const describe = (cart) => formatPrice(total(cart));
