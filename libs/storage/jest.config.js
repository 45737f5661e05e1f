export default { displayName: '@workcell/storage', preset: '../../jest.preset.js' };
