// The rules of a ManagerNetworkProtocol change (src/domain/manager/network-protocol.ts):
// host names, NTP servers, SSDP where it is offered, and partial application,
// as a table of current settings, change and facts against the outcome.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_NETWORK_PROTOCOL,
  changeNetworkProtocol,
  type NetworkProtocolChange,
  type NetworkProtocolSettings,
} from '../../../src/domain/manager/network-protocol.js';
import { type ExtendedInfo } from '../../../src/messages/errors.js';
import { baseError } from '../../../src/protocol/errors.js';
import { answered } from '../../support/refusals.js';

/** A message as "Registry.Key(args)@property". */
function text(i: ExtendedInfo): string {
  return `${i.MessageId.replace(/\.\d+\.\d+\./, '.')}(${i.MessageArgs.join(',')})${i.RelatedProperties ? `@${i.RelatedProperties.join(',')}` : ''}`;
}

/** The outcome in one line: what changed and what was refused, or the error thrown. */
function outcome(
  change: NetworkProtocolChange,
  o: { current?: NetworkProtocolSettings; ssdpOffered?: boolean; refused?: ExtendedInfo[] } = {},
) {
  try {
    const r = changeNetworkProtocol(o.current ?? DEFAULT_NETWORK_PROTOCOL, change, {
      ssdpOffered: o.ssdpOffered ?? true,
      refused: o.refused ?? [],
    });
    return { changed: r.changed.map(([p, v]) => `${p}=${v}`), problems: r.problems.map(text), settings: r.settings };
  } catch (e) {
    const a = answered(e);
    return { thrown: `${a.status} ${a.infos.map(text).join(' ')}` };
  }
}

describe('changeNetworkProtocol', () => {
  const cases: [name: string, change: NetworkProtocolChange, ssdpOffered: boolean, changed: string[] | string, problems?: string[]][] = [
    ['a host name', { HostName: 'mc-rack12' }, true, ['HostName=mc-rack12']],
    ['a dotted host name', { HostName: 'mc.example.com' }, true, ['HostName=mc.example.com']],
    ['a host name starting with a hyphen', { HostName: '-bad-' }, true, '400 Base.PropertyValueFormatError(-bad-,HostName)@#/HostName'],
    ['a host name with a trailing dot', { HostName: 'mc.' }, true, '400 Base.PropertyValueFormatError(mc.,HostName)@#/HostName'],
    ['NTP on', { NTP: { ProtocolEnabled: true } }, true, ['NTP/ProtocolEnabled=true']],
    ['NTP off', { NTP: { ProtocolEnabled: false } }, true, ['NTP/ProtocolEnabled=false']],
    [
      'two NTP servers, empty strings dropped',
      { NTP: { NTPServers: ['ntp1.example.com', '', '192.0.2.10', '  '] } },
      true,
      ['NTP/NTPServers=ntp1.example.com, 192.0.2.10'],
    ],
    ['an IPv6 NTP server', { NTP: { NTPServers: ['2001:db8::1'] } }, true, ['NTP/NTPServers=2001:db8::1']],
    ['no NTP servers', { NTP: { NTPServers: [] } }, true, ['NTP/NTPServers=']],
    [
      'a bad NTP server',
      { NTP: { NTPServers: ['ntp.example', 'not a host!'] } },
      true,
      '400 Base.PropertyValueFormatError(not a host!,NTP/NTPServers)@#/NTP/NTPServers',
    ],
    [
      'three NTP servers',
      { NTP: { NTPServers: ['a.example', 'b.example', 'c.example'] } },
      true,
      '400 Base.PropertyValueOutOfRange(["a.example","b.example","c.example"],NTP/NTPServers)@#/NTP/NTPServers',
    ],
    [
      'two NTP servers and two empty strings',
      { NTP: { NTPServers: ['a.example', '', 'b.example', ''] } },
      true,
      ['NTP/NTPServers=a.example, b.example'],
    ],
    [
      'NTP on with a bad server',
      { NTP: { ProtocolEnabled: true, NTPServers: ['bad host'] } },
      true,
      ['NTP/ProtocolEnabled=true'],
      ['Base.PropertyValueFormatError(bad host,NTP/NTPServers)@#/NTP/NTPServers'],
    ],
    [
      'a good host name with a bad NTP server',
      { HostName: 'mc-rack12', NTP: { NTPServers: ['bad host'] } },
      true,
      ['HostName=mc-rack12'],
      ['Base.PropertyValueFormatError(bad host,NTP/NTPServers)@#/NTP/NTPServers'],
    ],
    [
      'SSDP switches, in a fixed order',
      { SSDP: { NotifyTTL: 2, ProtocolEnabled: false, NotifyMulticastIntervalSeconds: 0 } },
      true,
      ['SSDP/ProtocolEnabled=false', 'SSDP/NotifyMulticastIntervalSeconds=0', 'SSDP/NotifyTTL=2'],
    ],
    ['SSDP where it is not offered', { SSDP: { ProtocolEnabled: false } }, false, '400 Base.PropertyNotWritable(SSDP)@#/SSDP'],
    [
      'SSDP where it is not offered, with a host name',
      { HostName: 'mc2', SSDP: { NotifyTTL: 3 } },
      false,
      ['HostName=mc2'],
      ['Base.PropertyNotWritable(SSDP)@#/SSDP'],
    ],
    ['an empty SSDP object', { SSDP: {} }, true, []],
    ['nothing', {}, true, []],
  ];
  for (const [name, change, ssdpOffered, changed, problems = []] of cases) {
    it(`${name} -> ${typeof changed === 'string' ? changed : changed.join('; ') || 'no change'}`, () => {
      const got = outcome(change, { ssdpOffered });
      if (typeof changed === 'string') assert.deepEqual(got, { thrown: changed });
      else assert.deepEqual({ changed: got.changed, problems: got.problems }, { changed, problems });
    });
  }

  it('keeps what is not changed and does not touch the current settings', () => {
    const current: NetworkProtocolSettings = {
      HostName: 'mc-a',
      NTP: { ProtocolEnabled: true, NTPServers: ['ntp.example'] },
      SSDP: { ProtocolEnabled: true, NotifyMulticastIntervalSeconds: 600, NotifyTTL: 5 },
    };
    const copy = structuredClone(current);
    const got = outcome({ SSDP: { NotifyTTL: 9 } }, { current });
    assert.deepEqual(got.settings, { ...copy, SSDP: { ...copy.SSDP, NotifyTTL: 9 } });
    assert.deepEqual(current, copy);
  });

  it("fails as a whole with the validator's messages first when nothing applies", () => {
    const refused = baseError('PropertyValueTypeError', 'yes', 'NTP/ProtocolEnabled').about('NTP/ProtocolEnabled').infos;
    assert.deepEqual(outcome({}, { refused }), {
      thrown: '400 Base.PropertyValueTypeError(yes,NTP/ProtocolEnabled)@#/NTP/ProtocolEnabled',
    });
    assert.deepEqual(outcome({ HostName: '_' }, { refused }), {
      thrown:
        '400 Base.PropertyValueTypeError(yes,NTP/ProtocolEnabled)@#/NTP/ProtocolEnabled Base.PropertyValueFormatError(_,HostName)@#/HostName',
    });
    // Something applies: the validator's messages stay the caller's, only this function's are returned.
    assert.deepEqual(outcome({ HostName: 'ok' }, { refused }).problems, []);
  });
});
