import { describe, expect, it } from 'vitest';
import { CURRENT_ENGINE_PROFILE } from '../domain/engine-profile.js';
import { ENGINE_PROFILES, engineProfile, profileDigest } from './profiles.js';

/**
 * Released profiles are immutable: Cases stamped with an id must re-run with exactly the same
 * settings and model hashes. Changing one of these digests means a released profile was edited:
 * add a new profile id instead.
 */
const RELEASED: Record<string, string> = {
  'ep-2026.11-1': '5d4073499e162cb81885805e185a9fc8c546e3a6afe2391409adc5f21033ad3b',
  'ep-2026.11-2': '29b668bdd9cece6dfc63d3d2ba37379acbac2b42afa65702b4525d06f97dc059',
  'ep-2026.11-3': 'fd818bbbe216a3701686404147a5a8f06c5b149775a52a24fd1d10d942ab18da',
  'ep-2026.11-4': '769b6d784decbd8fa4b7854c4fa6d86a05196b428e9e7e6f72b95065dd901e02',
  'ep-2026.11-5': '95af1561b01569bbb46beddd24186fd4a26b79d7532f9cce0a64705b1ad69cef',
  'ep-2026.11-6': '3f11c2f4f815400041de3de0165e0bf43aceee6895e12fc3b9a53f6d16f97e49',
  'ep-2026.11-7': 'f1fcf16590c4ea52a56612ff5544fb2657f16945eddd21ffec8bb6b1d2880555',
  'ep-2026.11-8': 'ed00e8009737f4633c31d5e05c4e025b83a46369f7e4ce2f4ef3c0adfd5f5b2e',
  'ep-2026.11-9': 'eb3f853c00a26d9f31fb20e9c23e8917dfb3cc8d7c228917dfff7b65b2cd1e40',
  'ep-2026.11-10': '496b9df18520de18dacb949357714c27888aa0f020e67eb7544f59ea651c70d5',
  'ep-2026.11-11': '590697d491bace59b9c2c5cc074f5fd96571f503e64baf1e7e2047d1d6f644cb',
  'ep-2026.11-12': 'c262b52f38d6b6dbb3dfa0789a88ea98d15f7e01ec42c8bf84e8e2ef16c08fce',
  'ep-2026.11-13': '0c15fde7a47540e69b19d4df8c6d59fff134bfd3c07f92dcf0a4b9b07d7e7191',
  'ep-2026.11-14': 'd1d737b825f040c7db3c9fcc3971743d97cb1c19746fd564bbe66992369297a2',
  'ep-2026.11-15': '21e6dfaa2c7d8eb4c8b92528c01d089eb7df6d3f9edea43507831d5ae1ccab70',
  'ep-2026.11-16': '43fe1185e0d22944dde525f03d92edb1efd75668e5f84a2f171e581bb7b7755e',
  'ep-2026.11-17': '44b6a441f284ed50e3646b8bfecf8ac2094bcc981850582943fe4c29f9ec744b',
  'ep-2026.11-18': 'e57dbf4a0004f367d46ea314c6949e61151928b1c7f6902b39005b359a4259e0',
  'ep-2026.11-19': '59676acd43c88119143033a862a81946904a78ad0548936352aa8ff7b51063f3',
  'ep-2026.11-20': 'f2567dd72eeb44bee5acae18cdce54227a678f9d2ff910c88d77674e27b0d82b',
  'ep-2026.11-21': '87237e3e7d0b5b14502885593f272182e91bbb02093fc4d25057eaf1a7589ef2',
  'ep-2026.11-22': '48fa647768d83761481ba8d1047159207f3b008c770f448d9621dead4a9c4d4e',
  'ep-2026.11-23': 'a80a2067f683bc3c241802b36008c1207432c974e416de769c3250b83b8c988e',
  'ep-2026.11-24': 'd4875fc97868746178fb436a63ba8989e62991bc10a5464f8f311e0dc968aba5',
  'ep-2026.11-25': 'ce19dfcde6b4c33eea3ecf4c437fa5fa96ec855db14ef7e8a5c5f56b0cd95e7f',
  'ep-2026.11-26': '7e1309b7c2cd26e80a92e9af7ec305157bdb6ce5419aa43e05537dcc7862adf2',
  'ep-2026.11-27': 'b4b39ef56b2cd5cf80ab1976425c18bd757500f1ff3f6241c5a92b391b200f98',
  'ep-2026.11-28': '3fc0abdf237ee2f8d0c676ad217996e44de1d78c6500beb76b096d93d4a368fc',
  'ep-2026.11-29': 'c9b8058b5b529e6a8021590e8ef75b7398a1efa63f28c5ae3e107d4eb4632544',
  'ep-2026.11-30': '2aa3d14c0389689833e9e5ccc0ee2ab93c560b140b27876c10b0ff8139eb6f04',
  'ep-2026.11-31': 'da14e573eb0d1ec29058948646b53995b9fca9b13c46aaf13501249d15d395fb',
  'ep-2026.11-32': '821accc1950ebd3f352af2d60951a815b927f90ea36c61d0203100a07125f1df',
  'ep-2026.11-33': '7f12cb2dda8c2761fb4373af20d64b02e64eb907208741b93d66c5339b3434d0',
  'ep-2026.11-34': '78ba7114b2c5486a1bf6fc1b76f11172cd7fe45945d3c3c791581d1b8631f7ad',
  'ep-2026.11-35': '06735d54468260f97706284fe2d306c9a1a4d977898624f5fa7e3166858a126c',
  'ep-2026.11-36': '1caccd95fe2a9dc2c102ae8339a03f2f4f1c045fd6659f0e31437dd23133f305',
  'ep-2026.11-37': 'ff61fd188a873eb72351457c72e60bf2b299c2ef5f4398571bd79c1e1903955d',
  'ep-2026.12-39': 'c3cf826e417bbeb61521225b0aea3b3be9c4f06218d85bfbc1d7cb308638491f',
  'ep-2026.12-40': '8aac1d8b141c1a34df7cd2fa9b8e40adf79fd84e9a8b8424a48d7ccc4187c377',
  'ep-2026.12-41': '3f793bafffaa92cbca846e0fbd39922a85514099b2e0a0605d19f7bb90f71535',
  'ep-2026.12-42': 'ca8e49400a37e1e0e4ca5fc1f17b3b8a8365781237cd8dd86f73542d74c9bb5d',
  'ep-2026.12-43': 'ef3e1b88e91086e21b43aadacf7f74bd05ae741dd102d7558241bbf8888dcd11',
  'ep-2026.12-44': 'a1d309c07acb762d9af3ca1760df31e31b7d9a43eef0afb6d01c19fe4f255bde',
  'ep-2026.12-45': '2f2f5075254cb20020112176131b295e1fdbb31a667a3d40b09c2c7e33cc825a',
  'ep-2026.12-46': '80c6dfda438c6f4d6448cb65dbfee4d79c6190e1982f7c9a4bba84bc2fe6844b',
};

describe('engine profiles', () => {
  it('the current profile exists and names every model by hash', () => {
    const p = engineProfile(CURRENT_ENGINE_PROFILE);
    const text = JSON.stringify(p);
    expect(text.match(/[0-9a-f]{64}/g)?.length).toBeGreaterThanOrEqual(8);
  });

  it.each(Object.entries(RELEASED))('released profile %s has not changed', (id, digest) => {
    expect(profileDigest(ENGINE_PROFILES[id]!)).toBe(digest);
  });

  it('every profile is pinned here', () => {
    expect(Object.keys(ENGINE_PROFILES).sort()).toEqual(Object.keys(RELEASED).sort());
  });
});
