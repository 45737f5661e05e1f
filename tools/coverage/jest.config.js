export default { displayName: '@workcell/coverage', preset: '../../jest.preset.js' };
