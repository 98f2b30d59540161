// The document as generated checks read it: operations with what they take and answer, the rules
// beyond the schema from their descriptions, and validators over the document's components.
import { describe, expect, it } from 'vitest';
import { ApiDocument, documentedAnswers } from './api-document.ts';

const doc = new ApiDocument({
  paths: {
    '/v1/things': {
      post: {
        tags: ['Things'],
        description: '- a rule: 400 `bank_id in body <b> is not registered`',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/thing' } } } },
        responses: {
          '201': { content: { 'application/json': { schema: { $ref: '#/components/schemas/thing' } } } },
          '400': { content: { 'application/json': { schema: { $ref: '#/components/schemas/error' } } } },
        },
        parameters: [],
      },
      get: {
        security: [],
        responses: { '200': {} },
        parameters: [
          { name: 'filter[name]', in: 'query' },
          { name: 'page[size]', in: 'query' },
        ],
      },
    },
  },
  components: {
    schemas: {
      thing: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      error: { type: 'object', required: ['error_message'] },
    },
  },
});

describe('ApiDocument', () => {
  it('reads each operation: body, success, error shape, filters, paging, openness', () => {
    const [post, get] = doc.operations;
    expect(post).toMatchObject({ key: 'POST /v1/things', tag: 'Things', status: 201, open: false, paged: false });
    expect(post!.error).toEqual({ $ref: '#/components/schemas/error' });
    expect(get).toMatchObject({ key: 'GET /v1/things', status: 200, open: true, paged: true, filters: ['name'] });
    expect(get!.body).toBeUndefined();
  });

  it('validates against the document’s components and says why not', () => {
    expect(doc.problem({ $ref: '#/components/schemas/thing' }, { name: 'x' })).toBeUndefined();
    expect(doc.problem({ $ref: '#/components/schemas/thing' }, {})).toMatch(/required property 'name'/);
  });

  it('reads the documented answers with what varies as a wildcard', () => {
    const [answer] = documentedAnswers('- a rule: 400 `bank_id in body <b> is not registered`, 409 `dup`');
    expect(answer!.status).toBe(400);
    expect(answer!.line.test('bank_id in body 123 is not registered')).toBe(true);
    expect(answer!.line.test('bank_id in body is required')).toBe(false);
  });
});
