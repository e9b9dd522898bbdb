import type { OrderAttribution } from '../../../shared/attribution/orderAttribution';
import type {
  BillingDetails,
  NewOrderLine,
  Order,
  OrderAddress,
  OrderShippingLine,
} from '../../../shared/orders/orderTypes';
import type { CartLine } from './sessions';

export interface NewOrder {
  orderKey: string;
  currency: string;
  paymentMethod: string;
  billing: BillingDetails;
  /** `processing` (paid on delivery) unless given: bank transfer and check orders wait `on-hold`. */
  status?: Order['status'];
  /** Where the order goes; none: the billing address. */
  shippingAddress?: OrderAddress;
  /** The method chosen and its cost and tax; none: an order without shipping. */
  shipping?: OrderShippingLine | null;
  /** What the tax is called where the order goes; each line carries its own tax (`lineTax`). */
  taxLabel?: string;
  /** Whether the lines' prices include their tax (then the total does not add it again). */
  pricesIncludeTax?: boolean;
  customerNote: string;
  sessionId: string;
  /**
   * The checkout form's key (minted with the page): a submit that carries the key of an order this session already
   * made answers that order instead of making another. Null for orders made without a form.
   */
  idempotencyKey: string | null;
  /**
   * The session's cart as the order's lines were priced from it. The cart is read again under the session's lock
   * inside the order's transaction: if it has changed or emptied since (another submit of the same cart won),
   * nothing is written.
   */
  pricedCart: readonly CartLine[];
  lines: NewOrderLine[];
  /** Where the buyer came from, written in the order's transaction; null without tracking. */
  attribution?: OrderAttribution | null;
}

export interface PlacedOrder {
  order: Order;
  /** True when the submit's key found an order made before: nothing was written this time. */
  replayed: boolean;
}

export interface OrderRepository {
  /**
   * Creates the order, its lines, the stock and sales changes and empties the session's cart in one
   * transaction, holding the session's lock so one cart makes one order on every engine. Answers the order the
   * idempotency key already made, if any. Throws a ShopError (empty_cart, cart_changed, out_of_stock,
   * not_purchasable) and writes nothing otherwise.
   */
  placeOrder(order: NewOrder): Promise<PlacedOrder>;
  getOrder(id: number): Promise<Order | null>;
  countOrders(): Promise<number>;
  /** The order a session made with a checkout form's key, if any (a replayed submit). */
  findByIdempotencyKey(sessionId: string, key: string): Promise<Order | null>;
}
