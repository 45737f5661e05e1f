export default { displayName: '@workcell/cli', preset: '../../jest.preset.js' };
