export default { displayName: '@workcell/e2e', preset: '../../jest.preset.js' };
