export default { displayName: '@workcell/registry-gen', preset: '../../jest.preset.js' };
