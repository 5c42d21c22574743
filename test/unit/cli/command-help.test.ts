// Every `raaga` help text is true: each option a help names is one its parser takes and each option the parser takes
// is named in its help, each group's one-line summary names its subcommands, and call-sim offers every provider
// with the credential options `raaga telephony set` stores for it.

import { describe, expect, it } from 'vitest';
import type { Command, CommandSpec } from '../../../src/cli/cli-command.js';
import { COMMANDS } from '../../../src/cli/command-registry.js';
import { COMMAND_SUMMARIES } from '../../../src/cli/command-summaries.js';
import { presentedCredentialFields } from '../../../src/sim/dial-provider.js';
import { PROVIDER_NAMES, PROVIDERS } from '../../../src/telephony/providers.js';

const commands: Command[] = await Promise.all(COMMANDS.map((entry) => entry.load()));

/** Every invocation: `raaga <command>` for a single command, `raaga <command> <sub>` for each of a group's. */
const invocations: { readonly path: string; readonly spec: CommandSpec }[] = commands.flatMap((command) =>
  command.spec ? [{ path: command.name, spec: command.spec }] : command.subcommands.map((sub) => ({ path: `${command.name} ${sub.name}`, spec: sub })),
);

/** The `--options` a help text names (`--help` aside: every command takes it). */
function documentedOptions(help: string): string[] {
  const names = [...help.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((match) => match[1]!);
  return [...new Set(names)].filter((name) => name !== 'help').sort();
}

describe('raaga help', () => {
  it('lists every command once, each with its summary', () => {
    expect(commands.map((command) => command.name)).toEqual(Object.keys(COMMAND_SUMMARIES));
    for (const command of commands) expect(command.summary).toBe(COMMAND_SUMMARIES[command.name as keyof typeof COMMAND_SUMMARIES]);
  });

  it.each(invocations.map(({ path, spec }) => [path, spec] as const))('raaga %s: its help names exactly the options its parser takes', (path, spec) => {
    expect(spec.help.split('\n')[0]).toMatch(new RegExp(`^Usage: raaga ${path}( |$)`));
    expect(documentedOptions(spec.help)).toEqual(Object.keys(spec.options).sort());
  });

  it("each group's summary names each of its subcommands", () => {
    const groups = commands.filter((command) => command.subcommands.length > 0);
    expect(groups.map((group) => group.name)).toEqual(['accounts', 'keys', 'credits', 'store', 'voices', 'lexicon', 'telephony']);
    for (const group of groups) {
      const unnamed = group.subcommands.filter((sub) => !new RegExp(`\\b${sub.name}\\b`, 'i').test(group.summary)).map((sub) => sub.name);
      expect({ group: group.name, unnamed }).toEqual({ group: group.name, unnamed: [] });
      for (const sub of group.subcommands) expect(group.help).toContain(sub.help.split('\n')[0]!.replace(/^Usage: /, ''));
    }
  });

  it("call-sim plays every provider, with the credential options 'raaga telephony set' stores for it", () => {
    const callSim = commands.find((command) => command.name === 'call-sim')!.spec!;
    const telephonySet = commands.find((command) => command.name === 'telephony')!.subcommands.find((sub) => sub.name === 'set')!;
    const providerLine = callSim.help.split('\n').find((line) => line.trimStart().startsWith('--provider'))!;
    for (const name of PROVIDER_NAMES) expect(providerLine).toMatch(new RegExp(`\\b${name}\\b`));
    for (const module of PROVIDERS) {
      for (const field of presentedCredentialFields(module.name)) {
        expect(module.credentials.fields).toContain(field);
        expect(Object.keys(callSim.options)).toContain(field.option);
        expect(Object.keys(telephonySet.options)).toContain(field.option);
      }
    }
    // A provider whose requests are checked against a credential presents one in the simulator.
    for (const module of PROVIDERS.filter((candidate) => candidate.credentials.fields.some((field) => !field.outbound))) {
      expect({ provider: module.name, presents: presentedCredentialFields(module.name).length > 0 }).toEqual({ provider: module.name, presents: true });
    }
  });
});
