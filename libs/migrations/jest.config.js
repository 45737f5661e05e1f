export default { displayName: '@workcell/migrations', preset: '../../jest.preset.js' };
