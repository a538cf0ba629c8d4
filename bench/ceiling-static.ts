// Ceiling (a): Bun serving a static JSON response, no framework, no database.
const body = JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', display_name: 'Bench', primary_email: 'bench@example.com' });
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: '127.0.0.1',
  development: false,
  fetch: () => new Response(body, { headers: { 'content-type': 'application/json' } }),
});
console.log(`ready ${server.port}`);
process.on('SIGTERM', () => { server.stop(); process.exit(0); });
