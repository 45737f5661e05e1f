export default { displayName: '@workcell/testing', preset: '../../jest.preset.js' };
