export default { displayName: '@workcell/registry', preset: '../../jest.preset.js' };
