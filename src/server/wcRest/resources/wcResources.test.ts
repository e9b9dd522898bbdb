import { describe, expect, it } from 'vitest';
import type { AdminProduct } from '../../../shared/catalog/adminProducts';
import type { Order } from '../../../shared/orders/orderTypes';
import { parseWcMoney, toWcCategory, toWcOrder, toWcProduct, toWcVariation, wcMoney } from '.';

const context = { decimals: 2, origin: 'https://shop.example' };

const address = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  company: '',
  address1: '1 Analytical St',
  address2: '',
  city: 'London',
  state: '',
  postcode: 'N1',
  country: 'GB',
};

const order: Order = {
  id: 42,
  orderKey: 'wc_order_abc',
  status: 'processing',
  currency: 'EUR',
  subtotal: 3600,
  total: 4380,
  paymentMethod: 'cod',
  billing: { ...address, email: 'ada@example.com', phone: '+44 1' },
  shippingAddress: { ...address, city: 'Paris', country: 'FR' },
  shipping: { methodId: 'flat_rate:3', title: 'Flat rate', cost: 500, tax: 100 },
  taxTotal: 280,
  taxLabel: 'VAT',
  pricesIncludeTax: false,
  customerNote: 'Leave at the door',
  createdAt: '2026-11-02T09:30:15.123Z',
  lines: [
    {
      productId: 7,
      variationId: 9,
      name: 'Hoodie - Blue',
      sku: 'HOOD-B',
      attributes: { attribute_color: 'blue' },
      quantity: 3,
      unitPrice: 1200,
      lineTotal: 3600,
      lineTax: 180,
    },
  ],
};

describe('toWcOrder', () => {
  it('writes WooCommerce v3 field names, money as decimal strings and dates without a zone', () => {
    const json = toWcOrder(
      {
        order,
        notes: [{ id: 1, author: 'system', text: 'Status changed', createdAt: '2026-11-03T10:00:00.000Z' }],
      },
      context,
    );
    expect(json).toMatchObject({
      id: 42,
      parent_id: 0,
      number: '42',
      order_key: 'wc_order_abc',
      status: 'processing',
      currency: 'EUR',
      date_created: '2026-11-02T09:30:15',
      date_created_gmt: '2026-11-02T09:30:15',
      date_modified: '2026-11-03T10:00:00',
      total: '43.80',
      total_tax: '2.80',
      shipping_total: '5.00',
      shipping_tax: '1.00',
      cart_tax: '1.80',
      customer_id: 0,
      customer_note: 'Leave at the door',
      payment_method: 'cod',
      payment_method_title: 'Cash on delivery',
      billing: { first_name: 'Ada', address_1: '1 Analytical St', email: 'ada@example.com', phone: '+44 1' },
      shipping: { city: 'Paris', country: 'FR' },
    });
    expect(json.line_items).toEqual([
      expect.objectContaining({
        id: 1,
        name: 'Hoodie - Blue',
        product_id: 7,
        variation_id: 9,
        quantity: 3,
        subtotal: '36.00',
        total: '36.00',
        total_tax: '1.80',
        sku: 'HOOD-B',
        price: 12,
        meta_data: [{ id: 1, key: 'color', value: 'blue' }],
      }),
    ]);
    expect(json.shipping_lines).toEqual([
      expect.objectContaining({ method_id: 'flat_rate', instance_id: '3', total: '5.00', total_tax: '1.00' }),
    ]);
  });

  it('keeps line amounts before tax when prices include tax', () => {
    const json = toWcOrder({ order: { ...order, pricesIncludeTax: true } }, context);
    expect(json.line_items[0]).toMatchObject({ subtotal: '34.20', total: '34.20', price: 11.4 });
  });
});

const product: AdminProduct = {
  id: 5,
  type: 'simple',
  name: 'Linen shirt',
  slug: 'linen-shirt',
  description: '<p>Soft</p>',
  shortDescription: 'Short',
  regularPrice: 4500,
  salePrice: 3900,
  sku: 'LIN-1',
  stockQuantity: 4,
  stockStatus: 'instock',
  backorders: 'no',
  status: 'draft',
  categoryIds: [3],
  imageUrl: '/wp-content/uploads/2026/11/shirt.jpg',
  variations: [],
};

describe('toWcProduct', () => {
  it('writes a draft from the owner’s view alone', () => {
    const json = toWcProduct(
      {
        product,
        detail: null,
        categories: [
          {
            id: 3,
            taxonomy: 'product_cat',
            slug: 'shirts',
            name: 'Shirts',
            parentId: null,
            description: '',
            path: ['shirts'],
          },
        ],
        createdAt: '2026-01-01T00:00:00.000Z',
      },
      context,
    );
    expect(json).toMatchObject({
      id: 5,
      name: 'Linen shirt',
      slug: 'linen-shirt',
      permalink: 'https://shop.example/product/linen-shirt/',
      type: 'simple',
      status: 'draft',
      sku: 'LIN-1',
      price: '39.00',
      regular_price: '45.00',
      sale_price: '39.00',
      on_sale: true,
      manage_stock: true,
      stock_quantity: 4,
      stock_status: 'instock',
      categories: [{ id: 3, name: 'Shirts', slug: 'shirts' }],
      images: [expect.objectContaining({ src: 'https://shop.example/wp-content/uploads/2026/11/shirt.jpg' })],
      average_rating: '0.00',
      date_created: '2026-01-01T00:00:00',
    });
  });

  it('says trash for a trashed product and no sale when the sale price is not below the regular one', () => {
    const json = toWcProduct(
      {
        product: { ...product, salePrice: 5000, stockQuantity: null },
        detail: null,
        categories: [],
        trashedAt: '2026-02-01T00:00:00.000Z',
      },
      context,
    );
    expect(json).toMatchObject({ status: 'trash', on_sale: false, sale_price: '', price: '45.00' });
    expect(json.manage_stock).toBe(false);
  });
});

describe('toWcVariation and toWcCategory', () => {
  it('names the variation’s chosen values and leaves out an “any” one', () => {
    const json = toWcVariation(
      {
        parent: { ...product, type: 'variable', status: 'publish' },
        variation: { id: 9, label: 'Blue', regularPrice: 1200, salePrice: null, sku: 'V9', stockQuantity: 0 },
        detail: {
          id: 9,
          sku: 'V9',
          attributes: { attribute_color: 'blue', attribute_size: '' },
          price: 1200,
          regularPrice: 1200,
          salePrice: null,
          is_in_stock: false,
          max_qty: 0,
          variation_stock_left: null,
          image: null,
        },
        parentAttributes: [
          {
            id: 1,
            slug: 'color',
            name: 'Color',
            swatchType: 'color',
            visible: true,
            forVariations: true,
            options: [{ slug: 'blue', name: 'Blue', color: null, image: null, swatchType: null }],
          },
          {
            id: 2,
            slug: 'size',
            name: 'Size',
            swatchType: 'label',
            visible: true,
            forVariations: true,
            options: [],
          },
        ],
      },
      context,
    );
    expect(json).toMatchObject({
      id: 9,
      sku: 'V9',
      price: '12.00',
      stock_quantity: 0,
      stock_status: 'outofstock',
      attributes: [{ id: 1, name: 'Color', option: 'Blue' }],
      permalink: 'https://shop.example/product/linen-shirt/?attribute_color=blue',
    });
  });

  it('writes a category with its parent as 0 at the top', () => {
    expect(
      toWcCategory(
        {
          id: 3,
          taxonomy: 'product_cat',
          slug: 'shirts',
          name: 'Shirts',
          parentId: null,
          description: 'd',
          path: ['shirts'],
        },
        2,
      ),
    ).toEqual(expect.objectContaining({ id: 3, name: 'Shirts', slug: 'shirts', parent: 0, count: 2 }));
  });
});

describe('money', () => {
  it('round-trips minor units and WooCommerce strings', () => {
    expect(wcMoney(5, 2)).toBe('0.05');
    expect(wcMoney(123456, 2)).toBe('1234.56');
    expect(wcMoney(7, 0)).toBe('7');
    expect(wcMoney(null, 2)).toBe('');
    expect(parseWcMoney('12.5', 2)).toBe(1250);
    expect(parseWcMoney('12', 2)).toBe(1200);
    expect(parseWcMoney('', 2)).toBeNull();
    expect(parseWcMoney('1.234', 2)).toBeNaN();
    expect(parseWcMoney('-1', 2)).toBeNaN();
  });
});
