export default { displayName: '@workcell/credentials', preset: '../../jest.preset.js' };
