// Renders the OpenAPI 3.1 and AsyncAPI 3.0 documents this server generates from its zod schemas into plain HTML.
// Deliberately small: operations, their parameters, bodies and responses, then the schemas and WebSocket messages.

const $ = (tag, attrs = {}, ...children) => {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  for (const child of children.flat(Infinity)) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
};

/** Inline `code` spans from the documents' markdown-ish backticks. */
function prose(text = '') {
  const p = $('p');
  text.split(/(`[^`]+`)/).forEach((part) => p.append(part.startsWith('`') ? $('code', {}, part.slice(1, -1)) : part));
  return p;
}

const refName = (ref) => ref.split('/').pop();
const anchor = (prefix, name) => `${prefix}-${name}`;

function typeOf(schema, prefix) {
  if (!schema) return 'any';
  if (schema.$ref) return $('a', { href: `#${anchor(prefix, refName(schema.$ref))}` }, refName(schema.$ref));
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return $('span', {}, ...alternatives.flatMap((alt, i) => [i ? ' | ' : '', typeOf(alt, prefix)]));
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.type === 'array') return $('span', {}, typeOf(schema.items, prefix), '[]');
  if (schema.type === 'object' && schema.additionalProperties && !schema.properties) {
    return $('span', {}, 'map of ', schema.propertyNames?.enum ? 'language' : 'string', ' → ', typeOf(schema.additionalProperties, prefix));
  }
  return schema.type ?? 'any';
}

function rules(schema) {
  const out = [];
  if (schema.enum) out.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) out.push(`length ≥ ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`length ≤ ${schema.maxLength}`);
  if (schema.deprecated) out.push('deprecated');
  return out.join('; ');
}

function fieldTable(schema, prefix) {
  if (!schema?.properties) return $('p', {}, 'Type: ', typeOf(schema, prefix));
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties).map(([name, prop]) =>
    $('tr', {}, $('td', {}, $('code', {}, name), required.has(name) ? $('span', { class: 'req' }, ' required') : ''),
      $('td', {}, typeOf(prop, prefix)), $('td', {}, [prop.description ?? '', rules(prop)].filter(Boolean).join(' — '))),
  );
  const note = schema.additionalProperties === false ? $('p', { class: 'muted' }, 'Unknown fields are rejected.') : '';
  return [$('table', {}, $('tr', {}, $('th', {}, 'Field'), $('th', {}, 'Type'), $('th', {}, 'Notes')), rows), note];
}

function operation(path, method, op, schemas) {
  const parts = [$('h3', {}, $('span', { class: `method ${path.endsWith('websocket') ? 'ws' : method}` }, method.toUpperCase()), $('span', { class: 'path' }, path)), prose(op.summary)];
  if (op.description) parts.push(prose(op.description));
  if (op.security?.length === 0) parts.push($('p', { class: 'muted' }, 'No API key needed.'));
  if (op.parameters?.length) {
    parts.push($('h4', {}, 'Parameters'), $('table', {}, $('tr', {}, $('th', {}, 'Name'), $('th', {}, 'In'), $('th', {}, 'Notes')),
      op.parameters.map((p) => $('tr', {}, $('td', {}, $('code', {}, p.name)), $('td', {}, p.in), $('td', {}, [p.description ?? '', rules(p.schema ?? {})].filter(Boolean).join(' — '))))));
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body) {
    const resolved = body.$ref ? schemas[refName(body.$ref)] : body;
    parts.push($('h4', {}, 'Request body (application/json): ', typeOf(body, 'schema')), fieldTable(resolved, 'schema'));
  }
  parts.push($('h4', {}, 'Responses'), $('table', {}, $('tr', {}, $('th', {}, 'Status'), $('th', {}, 'Body'), $('th', {}, 'Description')),
    Object.entries(op.responses).map(([status, response]) => {
      const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
      return $('tr', {}, $('td', {}, status), $('td', {}, media ? [typeOf(media.schema, 'schema'), ` (${type})`] : '—'), $('td', {}, prose(response.description)));
    })));
  return $('section', { class: 'op', id: op.operationId ?? '' }, parts);
}

function render(openapi, asyncapi) {
  const main = document.getElementById('content');
  main.replaceChildren();
  main.append($('h2', {}, `${openapi.info.title} ${openapi.info.version}`), prose(openapi.info.description));
  main.append($('h2', {}, 'HTTP endpoints'));
  for (const [path, methods] of Object.entries(openapi.paths)) {
    for (const [method, op] of Object.entries(methods)) main.append(operation(path, method, op, openapi.components.schemas));
  }
  main.append($('h2', {}, 'Schemas'));
  for (const [name, schema] of Object.entries(openapi.components.schemas)) {
    main.append($('section', { class: 'schema', id: anchor('schema', name) }, $('h3', {}, name), schema.description ? prose(schema.description) : '', fieldTable(schema, 'schema')));
  }
  main.append($('h2', {}, `WebSocket: ${asyncapi.info.title}`), prose(asyncapi.info.description));
  for (const operationDoc of Object.values(asyncapi.operations)) {
    main.append($('h3', {}, operationDoc.title));
    for (const { $ref } of operationDoc.messages) {
      const key = refName($ref);
      const message = asyncapi.components.messages[key];
      const payload = message.payload.$ref ? asyncapi.components.schemas[refName(message.payload.$ref)] : message.payload;
      main.append($('section', { class: 'message', id: anchor('message', key) }, $('h3', {}, $('code', {}, message.name)), prose(message.summary), fieldTable(payload, 'message')));
    }
  }
  document.body.dataset.rendered = 'true';
}

Promise.all(['/openapi.json', '/asyncapi.json'].map((url) => fetch(url).then((r) => r.json())))
  .then(([openapi, asyncapi]) => render(openapi, asyncapi))
  .catch((error) => document.getElementById('content').replaceChildren($('p', {}, `Could not load the API documents: ${error.message}`)));
